import Testing

@testable import MomentumCore

@Suite("Band conditions: presets, bounds and the terminal's spellings")
struct MorseBandConditionsTests {
    @Test func everyPresetIsWithinTheBounds() throws {
        for preset in MorseBandConditions.Preset.allCases {
            let conditions = MorseBandConditions.preset(preset)
            if let snr = conditions.signalToNoise { #expect(MorseBandConditions.signalToNoiseBounds.contains(snr)) }
            if let fading = conditions.fading {
                #expect(throws: Never.self) {
                    try MorseBandConditions.Fading(depth: fading.depth, period: fading.period)
                }
            }
            if let other = conditions.interference {
                #expect(throws: Never.self) {
                    try MorseBandConditions.Interference(
                        text: other.text, offsetHertz: other.offsetHertz, level: other.level)
                }
            }
            #expect(try MorseBandConditions.Preset(named: preset.rawValue.uppercased()) == preset)
        }
        #expect(MorseBandConditions.preset(.clean) == .clean)
        #expect(MorseBandConditions.preset(.weakDX).signalToNoise == 0)
        #expect(throws: MorseBandConditionsError.unknownPreset("noisy")) {
            try MorseBandConditions.Preset(named: "noisy")
        }
    }

    @Test func theTerminalsSpellingsAreRead() throws {
        let fading = try MorseBandConditions.Fading(parsing: "10/8")
        #expect(fading.depth == 10 && fading.period == .seconds(8))
        let other = try MorseBandConditions.Interference(parsing: "CQ TEST@+300")
        #expect(other.offsetHertz == 300 && other.level == -6)
        #expect(other.text.words.map { $0.map(\.displayText).joined() } == ["CQ", "TEST"])
        let quieter = try MorseBandConditions.Interference(parsing: "DE DL1AB@-250/-3")
        #expect(quieter.offsetHertz == -250 && quieter.level == -3)
    }

    @Test(arguments: [
        ("10", MorseBandConditionsError.unreadable("10")),
        ("10/", .unreadable("10/")),
        ("x/8", .unreadable("x/8")),
        ("50/8", .fadingDepthOutOfRange(50)),
        ("10/0.5", .fadingPeriodOutOfRange(.milliseconds(500))),
        ("nan/8", .fadingDepthOutOfRange(.nan)),
    ])
    func aBadFadingIsRefused(_ text: String, _ error: MorseBandConditionsError) {
        #expect {
            try MorseBandConditions.Fading(parsing: text)
        } throws: { thrown in
            // NaN is never equal to itself: compare the case.
            "\(thrown)" == "\(error)"
        }
    }

    @Test func aBadStationOrRatioIsRefused() {
        #expect(throws: MorseBandConditionsError.unreadable("CQ")) {
            try MorseBandConditions.Interference(parsing: "CQ")
        }
        #expect(throws: MorseBandConditionsError.interferenceOffsetOutOfRange(10)) {
            try MorseBandConditions.Interference(parsing: "CQ@10")
        }
        #expect(throws: MorseBandConditionsError.interferenceLevelOutOfRange(20)) {
            try MorseBandConditions.Interference(parsing: "CQ@300/20")
        }
        #expect(throws: MorseBandConditionsError.text(.unknownProsign("XY"))) {
            try MorseBandConditions.Interference(parsing: "<XY>@300")
        }
        #expect(throws: MorseBandConditionsError.signalToNoiseOutOfRange(41)) {
            try MorseBandConditions(signalToNoise: 41)
        }
        #expect(throws: MorseBandConditionsError.self) { try MorseBandConditions(signalToNoise: .infinity) }
    }
}

import Foundation
import MomentumAudio
import MomentumCore
import Testing

@testable import MomentumCLI

@Suite("momentum render and morse render")
struct RenderCommandTests {
    func audio(_ url: URL) throws -> WAVAudio { try WAVFile.decode(Data(contentsOf: url)) }

    @Test func aSitRendersWithItsGongsAtTheirSamplesAndLogsNothing() async throws {
        let terminal = try TestTerminal()
        let file = terminal.directory.url.appendingPathComponent("sit.wav")
        let status = await terminal.run([
            "render", "meditation", "2", "--countdown", "5", "--interval", "1", "--ambient", "rain",
            "--rate", "8000", "-o", file.path,
        ])
        #expect(status == 0, "\(terminal.errors.text)")
        let audio = try audio(file)
        #expect(audio.format == (try AudioFormat(sampleRate: 8_000)))
        // 5 s countdown + 2 min, then the end gong's 14 s ring.
        #expect(audio.frameCount == 8_000 * (125 + 14))
        // The interval gong at 5 s + 1 min: the frame before is quiet rain, then the strike.
        let strike = 8_000 * 65
        let before = audio.samples[strike - 400..<strike].map { abs(Int($0)) }.max() ?? 0
        let after = audio.samples[strike..<strike + 400].map { abs(Int($0)) }.max() ?? 0
        #expect(after > before * 2)
        #expect(terminal.output.text.hasPrefix("Wrote \(file.path): 2 min 19 s, 8000 Hz mono."))
        _ = await terminal.run(["log", "--json"])
        #expect(terminal.output.text.hasSuffix("[]\n") || terminal.output.text.contains("[\n\n]"))
    }

    @Test func breathingWorkoutsAndTimersRenderWithABedOfTheirOwn() async throws {
        let terminal = try TestTerminal()
        let folder = terminal.directory.url
        #expect(await terminal.run(["timer", "add", "Tea", "30s"]) == 0)
        let runs: [[String]] = [
            ["render", "breathing", "--pattern", "4-0-4-0", "--rounds", "2", "--ambient", "ocean", "--stereo"],
            ["render", "workout", "--work", "5", "--rest", "5", "--rounds", "2", "--get-ready", "3"],
            ["render", "timer", "tea", "--ambient", "brown", "--volume", "0.3"],
        ]
        for (index, arguments) in runs.enumerated() {
            let file = folder.appendingPathComponent("\(index).wav")
            #expect(
                await terminal.run(arguments + ["--rate", "16000", "-o", file.path]) == 0, "\(terminal.errors.text)")
            let audio = try audio(file)
            #expect(audio.format.channels == (index == 0 ? 2 : 1))
            #expect(audio.frameCount > 16_000 * 16)
        }
    }

    @Test func morseTextRendersAtTheAskedSpeed() async throws {
        let terminal = try TestTerminal()
        let file = terminal.directory.url.appendingPathComponent("paris.wav")
        #expect(await terminal.run(["morse", "render", "PARIS ", "--wpm", "20", "--fwpm", "10", "-o", file.path]) == 0)
        #expect(try audio(file).frameCount == 44_100 * 6)
        let text = terminal.directory.url.appendingPathComponent("text.txt")
        try Data("cq ä test\n".utf8).write(to: text)
        let fromFile = terminal.directory.url.appendingPathComponent("file.wav")
        #expect(
            await terminal.run(["morse", "render", "--file", text.path, "--skip-unknown", "-o", fromFile.path]) == 0)
        #expect(terminal.errors.text == "Left out (no Morse code): ä\n")
    }

    @Test func morseRendersUnderBandConditionsWithANegativeSignalToNoiseRatio() async throws {
        let terminal = try TestTerminal()
        let clean = terminal.directory.url.appendingPathComponent("clean.wav")
        let band = terminal.directory.url.appendingPathComponent("band.wav")
        #expect(await terminal.run(["morse", "render", "CQ", "-o", clean.path]) == 0)
        // A steady hand: weak-dx's heavy fist would change the length.
        let arguments = [
            "--conditions", "weak-dx", "--snr", "-3", "--noise", "pink", "--qsb", "10/4", "--qrm", "TEST@+250/-6",
            "--fist", "steady",
        ]
        #expect(
            await terminal.run(["morse", "render", "CQ"] + arguments + ["-o", band.path]) == 0,
            "\(terminal.errors.text)")
        // The same length; noise fills the silences a clean render leaves.
        let (quiet, noisy) = (try audio(clean), try audio(band))
        #expect(quiet.frameCount == noisy.frameCount)
        #expect(try Data(contentsOf: clean) != Data(contentsOf: band))
    }

    @Test(arguments: [
        (["morse", "render", "CQ", "--wpm", "0"], "The character speed must be 5–60 wpm (not 0)."),
        (
            ["morse", "render", "CQ", "--wpm", "20", "--fwpm", "25"],
            "The effective speed must be at least 5 wpm and at most the character speed (not 25)."
        ),
        (["morse", "render", "CQ", "--tone", "50000"], "The tone must be 400–1000 Hz (not 50,000)."),
        (["morse", "render", "CQ", "--rise", "30"], "The rise time must be 1–20 ms (not 30)."),
        (
            ["morse", "render", "☺☺"],
            "“☺” (at position 1) has no Morse code; leave it out or pass --skip-unknown."
        ),
        (["morse", "render", "☺", "--skip-unknown"], "Nothing to send: the text has no character with a Morse code."),
        (["morse", "render"], "Give the text to send or --file, not both."),
        (["morse", "render", "CQ", "--snr", "99"], "A signal-to-noise ratio of 99 dB is outside −10 to 40 dB."),
        (
            ["morse", "render", "CQ", "--wpm", "-3"],
            "“-3” is negative; Momentum's times and counts are never below zero."
        ),
        (
            ["morse", "render", "CQ", "--qrm", "TEST@-400"],
            "The other station would sound at 200 Hz, outside the receiver's 300 to 2,700 Hz: choose a smaller offset."
        ),
        (
            ["morse", "hands-free", "--speak", "fr"],
            "“fr” is no language hands-free copy speaks: use en (English) or de (German) for --speak."
        ),
        (
            ["morse", "render", "CQ", "--noise", "brown", "--snr", "3"],
            "“brown” is not a noise Momentum knows: use white or pink."
        ),
        (
            ["morse", "render", "CQ", "--noise", "pink"],
            "--noise sets the colour of the noise: give its level with --snr too (or a --conditions with noise)."
        ),
        (["morse", "render", "CQ", "--snr"], "--snr needs a value after it; “-o” is the next option."),
        (
            ["morse", "render", "CQ", "--conditions", "stormy"],
            "There are no conditions called “stormy”: choose clean, average-evening, contest or weak-dx."
        ),
        (["render", "meditation", "--rate", "1000"], "A sample rate of 1000 Hz is not supported; choose 8000–48000."),
        (
            ["render", "meditation", "--rate", "999999"],
            "A sample rate of 999999 Hz is not supported; choose 8000–48000."
        ),
        (["render", "meditation", "--open"], "An open-ended sit has no length to render; give a length, e.g. 20."),
        (
            ["render", "meditation", "600", "--countdown", "1"],
            "This practice lasts 10:00:01; audio files are rendered for up to 10 h. "
                + "Make it shorter (a countdown and a reflection count too)."
        ),
        (
            ["render", "workout", "--ambient", "thunder"],
            "There is no ambient sound “thunder”. Choose one of: silent, rain, ocean, stream, brown."
        ),
    ])
    func badInputGetsOneClearLineAndWritesNothing(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        let file = terminal.directory.url.appendingPathComponent("out.wav")
        let status = await terminal.run(arguments + ["-o", file.path])
        #expect(status != 0)
        #expect(terminal.errors.text == "momentum: \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func aMissingFolderIsNamed() async throws {
        let terminal = try TestTerminal()
        let folder = terminal.directory.url.appendingPathComponent("missing")
        let status = await terminal.run(["morse", "render", "CQ", "-o", folder.appendingPathComponent("cq.wav").path])
        #expect(status != 0)
        #expect(
            terminal.errors.text
                == "momentum: The folder \(folder.path) does not exist; create it first or choose another place.\n")
    }
}

import Foundation
import Testing

@testable import MomentumCore

@Suite("Device names: what a browser may call itself, and who a stamp names")
struct DeviceNameTests {
    @Test func aNameIsTrimmedAndKept() throws {
        #expect(try DeviceName.validated("  Anna's phone ") == "Anna's phone")
        #expect(try DeviceName.validated("Jürgens Handy 📱") == "Jürgens Handy 📱")
        #expect(try DeviceName.validated(String(repeating: "é", count: 40)).count == 40)
        #expect(try DeviceName.validated("anna@home") == "anna@home")
    }

    @Test func emptyLongAndControlledNamesAreRefused() {
        #expect(throws: DeviceNameError.empty) { try DeviceName.validated("   ") }
        #expect(throws: DeviceNameError.tooLong(count: 41)) {
            try DeviceName.validated(String(repeating: "a", count: 41))
        }
        #expect(throws: DeviceNameError.controlCharacter(code: 7)) { try DeviceName.validated("Anna\u{07}") }
        #expect(throws: DeviceNameError.controlCharacter(code: 0)) { try DeviceName.validated("Anna\u{0}s phone") }
        #expect(throws: DeviceNameError.controlCharacter(code: 0x0A)) { try DeviceName.validated("Anna\nphone") }
        #expect(throws: DeviceNameError.controlCharacter(code: 0x9B)) { try DeviceName.validated("Anna\u{9B}31m") }
        #expect(throws: DeviceNameError.controlCharacter(code: 0x2028)) { try DeviceName.validated("a\u{2028}b") }
        // A right-to-left override would make the name read as something else; a byte-order mark
        // would make two names that look alike different (issue 46).
        #expect(throws: DeviceNameError.bidirectionalControl(code: 0x202E)) {
            try DeviceName.validated("enohp\u{202E}")
        }
        #expect(throws: DeviceNameError.bidirectionalControl(code: 0xFEFF)) {
            try DeviceName.validated("\u{FEFF}phone")
        }
    }

    @Test func momentumsOwnStampFormsAreReserved() {
        #expect(throws: DeviceNameError.reserved) { try DeviceName.validated("web@laptop") }
        #expect(throws: DeviceNameError.reserved) { try DeviceName.validated("Terminal@laptop") }
    }

    @Test func theHeaderIsPercentEncodedUTF8() throws {
        #expect(try DeviceName.decodedHeader("Anna's%20phone") == "Anna's phone")
        #expect(try DeviceName.decodedHeader("J%C3%BCrgens%20Handy") == "Jürgens Handy")
        #expect(try DeviceName.decodedHeader("Desk") == "Desk")
        #expect(throws: DeviceNameError.encoding) { try DeviceName.decodedHeader("100%") }
        #expect(throws: DeviceNameError.encoding) { try DeviceName.decodedHeader("%FF%FE") }
        #expect(throws: DeviceNameError.controlCharacter(code: 0x1B)) { try DeviceName.decodedHeader("Anna%1B%5B2J") }
        #expect(throws: DeviceNameError.tooLong(count: 200)) {
            try DeviceName.decodedHeader(String(repeating: "%41", count: 200))
        }
    }

    @Test func aStampNamesABrowserTheTerminalOrANamedDevice() {
        #expect(ChangeAuthor(device: "web@laptop") == .browser)
        #expect(ChangeAuthor(device: "web@") == .browser)
        #expect(ChangeAuthor(device: "terminal@laptop") == .terminal(host: "laptop"))
        #expect(ChangeAuthor(device: "Anna's phone") == .device(name: "Anna's phone"))
        #expect(ChangeAuthor(device: "anna@home") == .device(name: "anna@home"))
        #expect(ChangeAuthor(device: "momentum") == .device(name: "momentum"))
    }

    @Test func aNameSetForATaskStaysInThatTask() async {
        #expect(DeviceName.current == nil)
        let inside = await DeviceName.$current.withValue("Anna's phone") { () async -> String? in
            await Task.yield()
            return DeviceName.current
        }
        #expect(inside == "Anna's phone")
        #expect(DeviceName.current == nil)
    }
}

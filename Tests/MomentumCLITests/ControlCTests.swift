import Foundation
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumCLI
@testable import MomentumStore

/// Ctrl-C arrives as byte 3 while a player reads raw keys. It ends the practice the way SIGINT
/// would — no more questions — after saving what counts, and the command exits with 130.
@Suite("Ctrl-C in a player: saved, then exit 130")
struct ControlCTests {
    static let controlC = Character(UnicodeScalar(3))

    @Test func aSitStoppedWithControlCIsKeptWithoutAskingAndExits130() async throws {
        let terminal = try TestTerminal()
        // The "n" after Ctrl-C would discard the sit if anything still asked.
        let status = await terminal.run(
            ["meditate", "10", "--countdown", "0"], keys: [(.seconds(200), Self.controlC), (.seconds(201), "n")])
        #expect(status == 130, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last == "Logged 3 min 20 s of meditation.")
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.countedSeconds) == [200])
    }

    @Test func aWorkoutStoppedWithControlCUnderAMinuteLogsNothingAndExits130() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["workout", "tabata"], keys: [(.seconds(30), Self.controlC)])
        #expect(status == 130, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last?.contains("nothing was logged") == true)
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().isEmpty)
    }

    @Test func qStillExitsZero() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["breathe", "box"], keys: [(.seconds(70), "q"), (.seconds(71), "y")])
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().count == 1)
    }
}

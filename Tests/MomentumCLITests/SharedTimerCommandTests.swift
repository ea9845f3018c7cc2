import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI
@testable import MomentumServices

/// Issue 38: a timer shared with a person is theirs to see, run and tick in the terminal too, as
/// in the web app — both ask the household which service runs a named timer.
@Suite("A timer shared with Ben: listed, started and ticked with --user Ben")
struct SharedTimerCommandTests {
    @Test func aSharedTimerIsListedStartedAndTickedByThePersonItWasSharedWith() async throws {
        let ada = try TestTerminal()
        #expect(await ada.run(["timer", "add", "Tea", "3", "--item", "kettle"]) == 0, "\(ada.errors.text)")
        #expect(await ada.run(["user", "add", "Ben"]) == 0, "\(ada.errors.text)")
        #expect(await ada.run(["timer", "share", "Tea", "--with", "Ben"]) == 0, "\(ada.errors.text)")

        let list = try TestTerminal(sharing: ada)
        #expect(await list.run(["timer", "list", "--user", "Ben"]) == 0, "\(list.errors.text)")
        #expect(list.output.text.contains("Tea"), "\(list.output.text)")
        #expect(list.output.text.contains("Shared by"), "\(list.output.text)")
        let json = try TestTerminal(sharing: ada)
        #expect(await json.run(["timer", "list", "--user", "Ben", "--json"]) == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["owner"] as? String != nil)

        let start = try TestTerminal(sharing: ada)
        #expect(await start.run(["timer", "start", "tea", "--user", "Ben"]) == 0, "\(start.errors.text)")
        let tick = try TestTerminal(sharing: ada)
        #expect(await tick.run(["timer", "check", "Tea", "kettle", "--user", "Ben"]) == 0, "\(tick.errors.text)")

        // Ada sees what Ben did to her timer.
        let show = try TestTerminal(sharing: ada)
        #expect(await show.run(["timer", "show", "Tea", "--json"]) == 0)
        let timer = try #require(try JSONSerialization.jsonObject(with: Data(show.output.text.utf8)) as? [String: Any])
        #expect(timer["status"] as? String == "running")
        #expect((timer["items"] as? [[String: Any]])?.first?["done"] as? Bool == true)
        // Only the owner deletes it.
        let delete = try TestTerminal(sharing: ada)
        #expect(await delete.run(["timer", "delete", "Tea", "--user", "Ben"]) != 0)
        #expect(delete.errors.text.contains("Tea"), "\(delete.errors.text)")
        let still = try TestTerminal(sharing: ada)
        #expect(await still.run(["timer", "show", "Tea"]) == 0)
    }
}

/// Issue 38: `momentum import` without `--user` acts for the owner when no terminal can be asked
/// (as the README says of every command), and asks on one.
@Suite("import in a household: the owner's without a terminal, asked on one")
struct ImportWhoseTests {
    @Test func withoutATerminalTheOwnersPracticeTakesTheFileOnATerminalItIsAsked() async throws {
        let ada = try TestTerminal()
        #expect(await ada.run(["log", "add", "--minutes", "20"]) == 0)
        #expect(await ada.run(["user", "add", "Ben"]) == 0)
        let file = ada.directory.url.appendingPathComponent("log.csv").path
        #expect(await ada.run(["export", "--format", "csv", "-o", file]) == 0)

        let script = try TestTerminal(sharing: ada)
        #expect(await script.run(["import", file, "--dry-run"], interactive: false) == 0, "\(script.errors.text)")
        #expect(!script.output.text.contains("Whose practice"))
        let asked = try TestTerminal(sharing: ada)
        #expect(await asked.run(["import", file, "--dry-run"], interactive: true, answer: "Ben") == 0)
        #expect(asked.output.text.contains("Whose practice is this file?"))
    }
}

@Suite("Access tokens never start with a dash")
struct TokenShapeTests {
    @Test func tenThousandSecretsNoneStartingWithADashAllOf43Characters() {
        var generator = SeededRandomNumberGenerator(seed: 38)
        let secrets = (0..<10_000).map { _ in AccessTokenService.secret(using: &generator) }
        #expect(!secrets.contains { $0.hasPrefix("-") })
        #expect(secrets.allSatisfy { $0.count == 43 })
        // Every other first character still comes up.
        #expect(Set(secrets.map(\.first)).count == 63)
    }
}

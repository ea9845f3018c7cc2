import Foundation
import Testing

@testable import MomentumCLI

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

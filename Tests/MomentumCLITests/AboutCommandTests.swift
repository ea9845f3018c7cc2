import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI

@Suite("momentum about")
struct AboutCommandTests {
    @Test func saysTheVersionThePromisesAndEveryLibraryWithItsLicense() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["about", "--lang", "en"])
        #expect(status == 0, "\(terminal.errors.text)")
        let text = terminal.output.text
        #expect(text.hasPrefix("About Momentum · Version \(MomentumCommand.version)\n"))
        #expect(text.contains("stays on your own server"))
        #expect(text.contains("synthesized"))
        for notice in OpenSourceNotice.all {
            #expect(text.contains("\(notice.name) — "), "\(notice.name)")
            #expect(text.contains("License: \(notice.license)"), "\(notice.name)")
        }
    }

    @Test func jsonIsWhatTheServerAnswers() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["about", "--json", "--lang", "de"])
        #expect(status == 0, "\(terminal.errors.text)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [String: Any])
        #expect(object["version"] as? String == MomentumCommand.version)
        #expect(object["title"] as? String == "Über Momentum")
        let libraries = try #require(object["libraries"] as? [[String: Any]])
        #expect(libraries.count == OpenSourceNotice.all.count)
        #expect(libraries.first { $0["name"] as? String == "GRDB" }?["license"] as? String == "MIT")
    }
}

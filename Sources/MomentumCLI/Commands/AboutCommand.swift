import ArgumentParser
import Foundation
import MomentumCore

/// `momentum about`: the version, what Momentum is, where the data stays, where its sounds come
/// from, and the open-source libraries it is built on with their licenses — the web app's About
/// view (`GET /api/v1/about`), from the same core type.
struct AboutCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "about", abstract: "Show the version, what Momentum is built on and the libraries' licenses.")

    @Flag(help: "Print JSON instead of text (what GET /api/v1/about answers).")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        let session = try await context.openSession(common)
        let about = AboutInfo(version: MomentumCommand.version, language: session.catalog.language)
        if json {
            context.output.write(try JSONOutput.encode(about) + "\n")
            return
        }
        var lines = [
            "\(about.title) · \(about.versionText)", "", about.summary, "", about.privacy, "", about.sounds, "",
        ]
        lines.append(about.librariesHeading)
        lines.append(about.librariesIntro)
        for library in about.libraries {
            lines.append("  \(library.name) — \(library.role). \(library.licenseText). \(library.url)")
        }
        lines.append(about.librariesMore)
        context.output.write(lines.joined(separator: "\n") + "\n")
    }
}

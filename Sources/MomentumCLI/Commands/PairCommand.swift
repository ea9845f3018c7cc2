import ArgumentParser
import Foundation
import MomentumCore
import MomentumServer
import MomentumServices
import MomentumStoreContract

/// `momentum pair --user NAME`: a one-time code, and its link as text and as a QR code, that signs
/// one browser in as that person — no token to type (see `docs/people.md`).
struct PairCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Sign a phone or tablet in as a person: prints a one-time link and its QR code (10 minutes, once).")

    @Option(
        help: ArgumentHelp(
            "Where the phone reaches the server (default: this machine's network address and $MOMENTUM_PORT or 8080).",
            valueName: "http://ip:port"))
    var address: String?

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let catalog = session.catalog
            let port = context.environment["MOMENTUM_PORT"].flatMap { Int($0) } ?? ServerConfiguration.defaultPort
            // The server this pairs with listens where $MOMENTUM_HOST says, else (to be reached from
            // a phone at all) on every address: the first address a phone can open, by the rule
            // `serve` and the web app use.
            let listenHost = context.environment["MOMENTUM_HOST"].flatMap(ListenHost.parse) ?? "0.0.0.0"
            var phoneBase: String?
            if case .network(let bases) = PhoneAddresses.live(listenHost: listenHost, port: port).reach {
                phoneBase = bases.first
            }
            let base = address ?? phoneBase ?? "http://127.0.0.1:\(port)"
            // The link is checked before a code is made: a wrong address spends nothing.
            _ = try PairingCode.link(base: base, code: String(repeating: "2", count: PairingCode.length))
            let pairing = try await session.household.startPairing(for: session.person)
            var lines = [catalog.format(.pairIntro, ["name": session.person.name]), ""]
            lines += try Self.lines(
                pairing, base: base, isInteractive: context.isInteractive, timeZone: context.timeZone, catalog: catalog)
            if address == nil, phoneBase == nil { lines.append(catalog[.pairLoopbackWarning]) }
            context.output.write(lines.joined(separator: "\n") + "\n")
        }
    }

    /// A pairing as the terminal shows it: the link, its QR code, the code to type and when it
    /// expires (`momentum pair`, and `momentum serve` when no device is signed in yet).
    static func lines(
        _ pairing: HouseholdService.Pairing, base: String, isInteractive: Bool, timeZone: TimeZone,
        catalog: StringCatalog
    ) throws -> [String] {
        let link = try PairingCode.link(base: base, code: pairing.code)
        var lines = [link, ""]
        // Fixed colours scan on light and dark terminals alike; a file or pipe gets plain blocks.
        let style: QRCode.TerminalStyle = isInteractive ? .fixedColours : .forDarkBackground
        lines += try QRCode.encode(link, correction: .medium).terminalLines(style: style) + [""]
        let normalizedBase = link.components(separatedBy: "/pair.html").first ?? base
        lines.append(catalog.format(.pairCode, ["address": normalizedBase, "code": pairing.code]))
        let time = catalog.language.dateFormatter(format: "HH:mm", timeZone: timeZone)
        lines.append(catalog.format(.pairExpires, ["time": time.string(from: pairing.expiresAt)]))
        return lines
    }
}

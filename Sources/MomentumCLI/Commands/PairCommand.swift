import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
            let port = context.environment["MOMENTUM_PORT"].flatMap { Int($0) } ?? 8080
            let lanAddress = LocalAddresses.firstNetworkIPv4()
            let base = address ?? "http://\(lanAddress ?? "127.0.0.1"):\(port)"
            // The link is checked before a code is made: a wrong address spends nothing.
            _ = try PairingCode.link(base: base, code: String(repeating: "2", count: PairingCode.length))
            let pairing = try session.household.startPairing(for: session.person)
            let link = try PairingCode.link(base: base, code: pairing.code)
            var lines = [catalog.format(.pairIntro, ["name": session.person.name]), "", link, ""]
            // Fixed colours scan on light and dark terminals alike; a file or pipe gets plain blocks.
            let style: QRCode.TerminalStyle = context.isInteractive ? .fixedColours : .forDarkBackground
            lines += try QRCode.encode(link, correction: .medium).terminalLines(style: style) + [""]
            let normalizedBase = link.components(separatedBy: "/pair.html").first ?? base
            lines.append(catalog.format(.pairCode, ["address": normalizedBase, "code": pairing.code]))
            let time = catalog.language.dateFormatter(format: "HH:mm", timeZone: context.timeZone)
            lines.append(catalog.format(.pairExpires, ["time": time.string(from: pairing.expiresAt)]))
            if address == nil, lanAddress == nil { lines.append(catalog[.pairLoopbackWarning]) }
            context.output.write(lines.joined(separator: "\n") + "\n")
        }
    }
}

/// The machine's own addresses, for the link a phone on the same network opens.
enum LocalAddresses {
    /// The first IPv4 address of an interface that is up and not loopback (the home network's,
    /// usually), or `nil`.
    static func firstNetworkIPv4() -> String? {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return nil }
        defer { freeifaddrs(first) }
        var found: String?
        for interface in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(interface.pointee.ifa_flags)
            guard found == nil, let address = interface.pointee.ifa_addr,
                address.pointee.sa_family == UInt8(AF_INET) || Int32(address.pointee.sa_family) == AF_INET,
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            if getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                found = String(decoding: host.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return found
    }
}

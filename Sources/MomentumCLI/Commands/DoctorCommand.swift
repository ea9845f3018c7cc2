import ArgumentParser
import Foundation
import MomentumCore
import MomentumServer
import MomentumServices
import MomentumStore
import MomentumStoreContract

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `momentum doctor`: what a self-hoster gets wrong — the data directory, the database, the
/// server on its address, the proxy in front of it, the clock — and what to fix. It reads and
/// asks; it changes nothing (docs/deploy.md, "When something is wrong").
struct DoctorCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the data directory, the database, the server, its proxy and the clock, and say what to fix.",
        discussion: """
            Changes nothing. The server is asked at $MOMENTUM_HOST:$MOMENTUM_PORT (127.0.0.1:8080 by default); \
            --url names the address phones use, to check the reverse proxy and HTTPS. \
            Exits 0 when nothing is a problem (warnings allowed); else 74 for the data directory, 65 for a \
            database, 69 for the server, its proxy or the clock.
            """)

    @Option(
        help: ArgumentHelp(
            "The address phones use, e.g. https://momentum.example.org: checks HTTPS and the proxy's headers.",
            valueName: "url"))
    var url: String?

    @Flag(help: "Print JSON: every finding with its check, status (ok, skipped, warning, problem), message and fix.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        let environment = context.environment
        let catalog = StringCatalog.shared(for: try common.language() ?? Language.preferred(in: environment))
        let directory = try DataDirectory.resolve(
            explicit: common.data, environment: environment, homeDirectory: context.homeDirectory)
        var publicAddress: URL?
        if let url {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false
            else { throw CommandFailure(catalog.format(.errorDoctorUrl, ["value": url])) }
            publicAddress = parsed
        }
        let doctor = SelfHostDoctor(
            dataDirectory: directory,
            databaseURL: common.database ?? environment["MOMENTUM_DATABASE_URL"],
            localServer: Self.localServer(environment: environment), publicAddress: publicAddress,
            version: MomentumCommand.version, catalog: catalog, now: context.now, timeZone: context.timeZone,
            systemHasTimeZone: environment["TZ"]?.isEmpty == false
                || FileManager.default.fileExists(atPath: "/etc/localtime"),
            askHealth: { url in
                await context.askHealth(url).mapError { .init(reason: catalog[$0.reasonKey]) }
            }, databaseFiles: .sqlite)
        let findings = await doctor.run()
        if json {
            context.output.write(try JSONOutput.encode(Report(findings: findings)) + "\n")
        } else {
            context.output.write(Self.text(findings, directory: directory, catalog: catalog) + "\n")
        }
        if let worst = findings.first(where: { $0.status == .problem }) {
            throw ExitCode(Self.exit(for: worst.check).rawValue)
        }
    }

    struct Report: Encodable {
        var findings: [DoctorFinding]
        var problems: Int
        var warnings: Int

        init(findings: [DoctorFinding]) {
            self.findings = findings
            problems = findings.count { $0.status == .problem }
            warnings = findings.count { $0.status == .warning }
        }
    }

    /// One line per finding, marked ✓ (ok), – (skipped), ! (warning) or ✗ (problem), its fix
    /// indented below, and a summary.
    static func text(_ findings: [DoctorFinding], directory: URL, catalog: StringCatalog) -> String {
        var lines = [catalog.format(.doctorTitle, ["path": directory.path]), ""]
        for finding in findings {
            let mark =
                switch finding.status {
                case .ok: "✓"
                case .skipped: "–"
                case .warning: "!"
                case .problem: "✗"
                }
            lines.append("\(mark) \(finding.message)")
            if let fix = finding.fix { lines.append("  " + catalog.format(.doctorFix, ["fix": fix])) }
        }
        let report = Report(findings: findings)
        lines.append("")
        lines.append(
            report.problems + report.warnings == 0
                ? catalog[.doctorSummaryOk]
                : catalog.format(.doctorSummary, ["problems": "\(report.problems)", "warnings": "\(report.warnings)"]))
        return lines.joined(separator: "\n")
    }

    static func exit(for check: DoctorFinding.Check) -> CommandExit {
        switch check {
        case .dataDirectory: .ioError
        case .database: .dataError
        case .server, .proxy, .clock: .unavailable
        }
    }

    /// Where `serve` listens on this machine: `$MOMENTUM_HOST` (every address asked at 127.0.0.1)
    /// and `$MOMENTUM_PORT`.
    static func localServer(environment: [String: String]) -> URL {
        var host = environment["MOMENTUM_HOST"].flatMap(ListenHost.parse) ?? ServerConfiguration.defaultHost
        if ListenHost.isEveryAddress(host) { host = host.contains(":") ? "::1" : ServerConfiguration.defaultHost }
        let port = environment["MOMENTUM_PORT"].flatMap { Int($0) } ?? ServerConfiguration.defaultPort
        return URL(string: PhoneAddresses.base(host: host, port: port))
            ?? URL(fileURLWithPath: "/")
    }
}

/// Why a server did not answer, as `momentum doctor` says it (never the HTTP library's words).
public enum HealthUnreachable: Error, Sendable, Equatable {
    case refused
    case timedOut
    case unknownName
    case untrustedCertificate
    case other

    var reasonKey: StringKey {
        switch self {
        case .refused: .doctorReasonRefused
        case .timedOut: .doctorReasonTimedOut
        case .unknownName: .doctorReasonUnknownName
        case .untrustedCertificate: .doctorReasonCertificate
        case .other: .doctorReasonOther
        }
    }

    init(_ error: any Error) {
        let code = (error as? URLError)?.code
        switch code {
        case .cannotConnectToHost?, .networkConnectionLost?: self = .refused
        case .timedOut?: self = .timedOut
        case .cannotFindHost?, .dnsLookupFailed?: self = .unknownName
        case .serverCertificateUntrusted?, .serverCertificateHasBadDate?, .serverCertificateHasUnknownRoot?,
            .serverCertificateNotYetValid?, .secureConnectionFailed?:
            self = .untrustedCertificate
        default: self = .other
        }
    }
}

extension CommandContext {
    /// `GET URL` of a server's `/health`, with a 5-second limit.
    static func liveHealth(_ url: URL) async -> Result<HealthAnswer, HealthUnreachable> {
        var request = URLRequest(url: url)
        request.timeoutInterval = 5
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                return .failure(.other)
            }
            // try?: a body that is not JSON (a proxy's error page) leaves version, host and
            // secure unknown; the status and the Date header still tell what answered.
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            let seen = object?["request"] as? [String: Any]
            let date = (http.value(forHTTPHeaderField: "Date")).flatMap(HTTPDate.parse)
            return .success(
                HealthAnswer(
                    status: http.statusCode, version: object?["version"] as? String, secure: seen?["secure"] as? Bool,
                    host: seen?["host"] as? String, date: date))
        } catch {
            return .failure(HealthUnreachable(error))
        }
    }
}

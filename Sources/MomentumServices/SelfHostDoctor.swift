import Foundation
import MomentumCore
import MomentumStoreContract

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `momentum doctor` finds: the things a self-hoster gets wrong, each with what to fix
/// (docs/deploy.md, "When something is wrong").
public struct DoctorFinding: Sendable, Equatable, Encodable {
    public enum Check: String, Sendable, Encodable, CaseIterable {
        case dataDirectory, database, server, proxy, clock
    }

    public enum Status: String, Sendable, Encodable, Comparable {
        /// Fine.
        case ok
        /// Not checked (no address given, PostgreSQL's own business).
        case skipped
        /// Works, but will bite: little space, others can read the data, not HTTPS.
        case warning
        /// Does not work: an unwritable directory, a damaged database, a proxy that lies.
        case problem

        private var rank: Int { [.ok: 0, .skipped: 1, .warning: 2, .problem: 3][self] ?? 0 }
        public static func < (left: Status, right: Status) -> Bool { left.rank < right.rank }
    }

    public var check: Check
    public var status: Status
    /// What was found, in the person's language.
    public var message: String
    /// What to do about it; `nil` when nothing is to be done.
    public var fix: String?

    public init(check: Check, status: Status, message: String, fix: String? = nil) {
        self.check = check
        self.status = status
        self.message = message
        self.fix = fix
    }
}

/// What a server's `/health` answered: its version, whether it judged the request secure
/// (HTTPS, or `X-Forwarded-Proto: https` from a proxy) and the host it was called by.
public struct HealthAnswer: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    public var version: String?
    public var secure: Bool?
    public var host: String?
    /// The server's clock (its `Date` header).
    public var date: Date?

    public init(status: Int, version: String? = nil, secure: Bool? = nil, host: String? = nil, date: Date? = nil) {
        self.status = status
        self.version = version
        self.secure = secure
        self.host = host
        self.date = date
    }
}

/// The checks of `momentum doctor`. The file system and the database are read for real; the
/// server is asked through `askHealth` (live: an HTTP GET of `/health`), which says why when
/// nothing answers.
public struct SelfHostDoctor: Sendable {
    public var dataDirectory: URL
    /// `postgres://…` when the household lives in PostgreSQL.
    public var databaseURL: String?
    /// The server on this machine, as `serve` would listen (`http://127.0.0.1:8080`).
    public var localServer: URL
    /// The address phones use (`--url`), to check the proxy and HTTPS; `nil` skips that.
    public var publicAddress: URL?
    public var version: String
    public var catalog: StringCatalog
    public var now: @Sendable () -> Date
    public var timeZone: TimeZone
    /// Whether the system names a time zone (`/etc/localtime` or `$TZ`).
    public var systemHasTimeZone: Bool
    public var askHealth: @Sendable (URL) async -> Result<HealthAnswer, DoctorUnreachable>
    /// How the data directory's database files are read.
    public var databaseFiles: DatabaseFileCheck

    /// Why nothing answered, in words (`Connection refused`, `certificate not trusted`).
    public struct DoctorUnreachable: Error, Sendable, Equatable {
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }

    public init(
        dataDirectory: URL, databaseURL: String?, localServer: URL, publicAddress: URL?, version: String,
        catalog: StringCatalog, now: @escaping @Sendable () -> Date, timeZone: TimeZone, systemHasTimeZone: Bool,
        askHealth: @escaping @Sendable (URL) async -> Result<HealthAnswer, DoctorUnreachable>,
        databaseFiles: DatabaseFileCheck
    ) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.localServer = localServer
        self.publicAddress = publicAddress
        self.version = version
        self.catalog = catalog
        self.now = now
        self.timeZone = timeZone
        self.systemHasTimeZone = systemHasTimeZone
        self.askHealth = askHealth
        self.databaseFiles = databaseFiles
    }

    /// Below this much free space the disk is a problem; below `lowSpace`, a warning.
    public static let tooLittleSpace: Int64 = 100 << 20
    public static let lowSpace: Int64 = 1 << 30
    /// A write-ahead log this large means checkpoints are not happening.
    public static let largeWAL: Int64 = 64 << 20
    /// Clocks further apart than this disagree about when a practice happened.
    public static let clockTolerance: TimeInterval = 60

    /// Every check, in the order a person fixes them.
    public func run() async -> [DoctorFinding] {
        var findings = dataDirectoryFindings()
        findings += databaseFindings()
        let (server, answer) = await serverFinding()
        findings.append(server)
        findings.append(await proxyFinding())
        findings += clockFindings(server: answer)
        return findings
    }

    // MARK: - The data directory

    func dataDirectoryFindings() -> [DoctorFinding] {
        let path = dataDirectory.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            return [
                finding(
                    .dataDirectory, .warning, .doctorDirMissing, ["path": path], fix: .doctorDirMissingFix)
            ]
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return [finding(.dataDirectory, .problem, .doctorDirNotFolder, ["path": path], fix: .doctorDirNotFolderFix)]
        }
        let mode = String(info.st_mode & 0o777, radix: 8)
        var system = statvfs()
        let hasFileSystem = statvfs(path, &system) == 0
        let values = ["path": path, "mode": mode, "owner": "\(info.st_uid)", "you": "\(geteuid())"]
        if hasFileSystem, system.f_flag & UInt(ST_RDONLY) != 0 {
            return [finding(.dataDirectory, .problem, .doctorDirReadOnlyMount, values, fix: .doctorDirReadOnlyMountFix)]
        }
        // The owner's write bit as well as access(2): root may write anywhere, the service's user not.
        if info.st_mode & S_IWUSR == 0 || access(path, W_OK | X_OK) != 0 {
            return [finding(.dataDirectory, .problem, .doctorDirNotWritable, values, fix: .doctorDirNotWritableFix)]
        }
        var findings: [DoctorFinding] = []
        if info.st_uid != geteuid() {
            findings.append(
                finding(.dataDirectory, .warning, .doctorDirOtherOwner, values, fix: .doctorDirOtherOwnerFix))
        }
        if info.st_mode & 0o007 != 0 {
            findings.append(
                finding(.dataDirectory, .warning, .doctorDirOthersCanRead, values, fix: .doctorDirOthersCanReadFix))
        }
        let free = hasFileSystem ? Int64(system.f_bavail) * Int64(system.f_frsize) : Int64.max
        var shown = values
        shown["free"] = sizeText(free)
        if free < Self.lowSpace {
            let status: DoctorFinding.Status = free < Self.tooLittleSpace ? .problem : .warning
            findings.append(finding(.dataDirectory, status, .doctorDirLowSpace, shown, fix: .doctorDirLowSpaceFix))
        }
        if findings.isEmpty { findings.append(finding(.dataDirectory, .ok, .doctorDirOk, shown)) }
        return findings
    }

    // MARK: - The database

    func databaseFindings() -> [DoctorFinding] {
        if let databaseURL, !databaseURL.isEmpty {
            // Host and database only: a password in the address stays off the screen.
            var parts = URLComponents(string: databaseURL)
            parts?.password = nil
            parts?.user = nil
            let shown = parts.map { "\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")\($0.path)" } ?? "PostgreSQL"
            return [finding(.database, .skipped, .doctorDatabasePostgres, ["database": shown])]
        }
        var files = [dataDirectory.appendingPathComponent(databaseFiles.fileName)]
        let people = dataDirectory.appendingPathComponent("people")
        var unlisted: [DoctorFinding] = []
        let folders: [String]
        do {
            folders = try FileManager.default.contentsOfDirectory(atPath: people.path).sorted()
        } catch {
            // No folder: no one but the founder yet. One that cannot be listed hides databases.
            folders = []
            let problem = FileProblem(error)
            if problem != .missing {
                let values = ["path": people.path, "reason": problem.text(catalog)]
                unlisted.append(finding(.database, .problem, .errorImportCannotRead, values))
            }
        }
        for folder in folders {
            let file = people.appendingPathComponent(folder).appendingPathComponent(databaseFiles.fileName)
            if FileManager.default.fileExists(atPath: file.path) { files.append(file) }
        }
        return files.flatMap(databaseFindings(file:)) + unlisted
    }

    func databaseFindings(file: URL) -> [DoctorFinding] {
        let name = String(file.path.dropFirst(dataDirectory.path.count).drop { $0 == "/" })
        guard FileManager.default.fileExists(atPath: file.path) else {
            return [finding(.database, .ok, .doctorDatabaseNone, ["file": name])]
        }
        let check: DatabaseCheck
        do {
            check = try databaseFiles.check(file.path)
        } catch {
            let detail = ErrorMessages.message(for: error, catalog: catalog)
            return [
                finding(
                    .database, .problem, .doctorDatabaseDamaged, ["file": name, "detail": detail],
                    fix: .doctorDatabaseDamagedFix)
            ]
        }
        let values = ["file": name, "wal": sizeText(check.walBytes), "version": version]
        guard check.isIntact else {
            let detail = check.integrity.prefix(3).joined(separator: "; ")
            return [
                finding(
                    .database, .problem, .doctorDatabaseDamaged, ["file": name, "detail": detail],
                    fix: .doctorDatabaseDamagedFix)
            ]
        }
        var findings: [DoctorFinding] = []
        switch check.schema {
        case .current(let newest):
            findings.append(finding(.database, .ok, .doctorDatabaseOk, values.merging(["schema": newest]) { $1 }))
        case .older(let pending):
            findings.append(
                finding(.database, .ok, .doctorDatabaseOlder, values.merging(["count": "\(pending)"]) { $1 }))
        case .newer(let unknown):
            findings.append(
                finding(
                    .database, .problem, .doctorDatabaseNewer,
                    values.merging(["migrations": unknown.joined(separator: ", ")]) { $1 }, fix: .doctorDatabaseNewerFix
                ))
        }
        if check.walBytes > Self.largeWAL {
            findings.append(
                finding(.database, .warning, .doctorDatabaseLargeWAL, values, fix: .doctorDatabaseLargeWALFix))
        }
        return findings
    }

    // MARK: - The server and its proxy

    func serverFinding() async -> (DoctorFinding, HealthAnswer?) {
        let url = localServer.appendingPathComponent("health")
        switch await askHealth(url) {
        case .failure(let unreachable):
            return (
                finding(
                    .server, .warning, .doctorServerUnreachable,
                    ["url": url.absoluteString, "detail": unreachable.reason],
                    fix: .doctorServerUnreachableFix), nil
            )
        case .success(let answer):
            let values = ["url": url.absoluteString, "version": answer.version ?? "?", "mine": version]
            guard answer.status == 200, answer.version != nil else {
                return (
                    finding(
                        .server, .warning, .doctorServerUnreachable,
                        ["url": url.absoluteString, "detail": "HTTP \(answer.status)"], fix: .doctorServerUnreachableFix
                    ),
                    answer
                )
            }
            if answer.version != version {
                return (
                    finding(.server, .warning, .doctorServerOtherVersion, values, fix: .doctorServerOtherVersionFix),
                    answer
                )
            }
            return (finding(.server, .ok, .doctorServerOk, values), answer)
        }
    }

    func proxyFinding() async -> DoctorFinding {
        guard let publicAddress, let host = publicAddress.host else {
            return finding(.proxy, .skipped, .doctorProxyNotAsked, [:])
        }
        let url = publicAddress.appendingPathComponent("health")
        let values = ["url": publicAddress.absoluteString, "host": host]
        switch await askHealth(url) {
        case .failure(let unreachable):
            return finding(
                .proxy, .problem, .doctorServerUnreachable, ["url": url.absoluteString, "detail": unreachable.reason],
                fix: .doctorProxyUnreachableFix)
        case .success(let answer) where answer.status == 421 || answer.status == 400:
            return finding(
                .proxy, .problem, .doctorProxyHostRefused, values.merging(["status": "HTTP \(answer.status)"]) { $1 },
                fix: .doctorProxyHostRefusedFix)
        case .success(let answer):
            if publicAddress.scheme?.lowercased() != "https" {
                return finding(.proxy, .warning, .doctorProxyPlainHTTP, values, fix: .doctorProxyPlainHTTPFix)
            }
            if answer.secure != true {
                return finding(
                    .proxy, .problem, .doctorProxyNoForwardedProto, values, fix: .doctorProxyNoForwardedProtoFix)
            }
            return finding(.proxy, .ok, .doctorProxyOk, values)
        }
    }

    // MARK: - The clock

    func clockFindings(server: HealthAnswer?) -> [DoctorFinding] {
        let at = now()
        let formatter = catalog.language.dateFormatter(template: "d MMM y jmm", timeZone: timeZone)
        let values = ["time": formatter.string(from: at), "zone": timeZone.identifier]
        // Before Momentum existed: a machine that lost its time (no RTC, no network yet).
        guard at >= Date(timeIntervalSince1970: 1_767_225_600) else {  // 2026-01-01
            return [finding(.clock, .problem, .doctorClockWrong, values, fix: .doctorClockWrongFix)]
        }
        var findings: [DoctorFinding] = []
        if !systemHasTimeZone {
            findings.append(finding(.clock, .warning, .doctorClockNoZone, values, fix: .doctorClockNoZoneFix))
        }
        if let serverDate = server?.date, abs(serverDate.timeIntervalSince(at)) > Self.clockTolerance {
            let seconds = Int(abs(serverDate.timeIntervalSince(at)).rounded())
            findings.append(
                finding(.clock, .warning, .doctorClockDiffers, ["seconds": "\(seconds)"], fix: .doctorClockDiffersFix))
        }
        if findings.isEmpty { findings.append(finding(.clock, .ok, .doctorClockOk, values)) }
        return findings
    }

    // MARK: - Words

    private func finding(
        _ check: DoctorFinding.Check, _ status: DoctorFinding.Status, _ key: StringKey, _ values: [String: String],
        fix: StringKey? = nil
    ) -> DoctorFinding {
        DoctorFinding(
            check: check, status: status, message: catalog.format(key, values),
            fix: fix.map { catalog.format($0, values) })
    }

    /// `812 MB`, `51.2 GB` in the person's language.
    func sizeText(_ bytes: Int64) -> String {
        let locale = catalog.language.locale
        if bytes >= 1 << 30 {
            let value = Double(bytes) / Double(1 << 30)
            return value.formatted(.number.precision(.fractionLength(1)).locale(locale)) + " GB"
        }
        return (bytes >> 20).formatted(.number.locale(locale)) + " MB"
    }
}

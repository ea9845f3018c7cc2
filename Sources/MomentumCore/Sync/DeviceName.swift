/// The name a person gives one of their browsers ("Anna's phone"), so "changed by" can say which
/// device changed something — never `web@host`.
///
/// A browser sends its name with every API request in the `X-Momentum-Device` header,
/// percent-encoded UTF-8 (`Anna%27s%20phone`); the server checks it with ``validated(_:)`` and
/// stamps the changes that request makes with it (``current``). A custom header makes a browser
/// ask first (CORS preflight) before another site's page could send it, and the server answers no
/// preflight, so only the app's own pages and tools with access to the API can name a change.
///
/// ```swift
/// let name = try DeviceName.validated("  Anna's phone ")   // "Anna's phone"
/// try DeviceName.$current.withValue(name) { try services.focusTimers.start(named: "Reading") }
/// ChangeAuthor(device: "terminal@laptop")                   // .terminal(host: "laptop")
/// ```
public enum DeviceName {
    /// The most characters a device's name may have.
    public static let maximumLength = 40

    /// The request header a browser sends its name in.
    public static let headerName = "X-Momentum-Device"

    /// The name the changes made in this task are stamped with, instead of the services' own
    /// device name; `nil` for the services' own (a request without a name, the terminal).
    @TaskLocal public static var current: String?

    /// `text` trimmed, if it may name a device: 1–40 characters, within ``TextInput``'s rule for
    /// one-line texts (no control characters, no bidirectional controls or U+FEFF, which would make
    /// the name read differently from what it is), and not in a form Momentum stamps its own
    /// changes with (`web@…`, `terminal@…`).
    public static func validated(_ text: String) throws(DeviceNameError) -> String {
        do {
            try TextInput.check(text, field: "name")
        } catch {
            switch error {
            case .controlCharacter(_, let code): throw .controlCharacter(code: code)
            case .bidirectionalControl(_, let code): throw .bidirectionalControl(code: code)
            }
        }
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .empty }
        guard name.count <= maximumLength else { throw .tooLong(count: name.count) }
        let lowered = name.lowercased()
        guard !lowered.hasPrefix("web@"), !lowered.hasPrefix("terminal@") else { throw .reserved }
        return name
    }

    /// The header's value: percent-encoded UTF-8, as JavaScript's `encodeURIComponent` writes it.
    public static func decodedHeader(_ value: String) throws(DeviceNameError) -> String {
        guard let text = value.removingPercentEncoding else { throw .encoding }
        return try validated(text)
    }

}

/// Why a device name is refused.
public enum DeviceNameError: Error, Equatable, Sendable {
    case empty
    case tooLong(count: Int)
    /// `code` is the refused character's Unicode scalar value.
    case controlCharacter(code: UInt32)
    /// A bidirectional control or U+FEFF (see ``TextInput``).
    case bidirectionalControl(code: UInt32)
    /// `web@…` or `terminal@…`: the forms of Momentum's own stamps.
    case reserved
    /// Not percent-encoded UTF-8.
    case encoding
    /// The header came more than once.
    case repeated
}

/// Who made a synced change, from the device its stamp carries: what "changed by" says.
public enum ChangeAuthor: Equatable, Sendable {
    /// A browser without a name (`web@host`: the server's own stamp for API writes).
    case browser
    /// The terminal (`momentum …`) on `host` (`terminal@host`).
    case terminal(host: String)
    /// A device the person named ("Anna's phone"), or another installation's name.
    case device(name: String)

    public init(device: String) {
        let parts = device.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let host = parts.count == 2 ? String(parts[1]) : ""
        switch parts.count == 2 ? parts[0].lowercased() : nil {
        case "web": self = .browser
        case "terminal" where !host.isEmpty: self = .terminal(host: host)
        case "terminal": self = .device(name: "terminal")
        default: self = .device(name: device)
        }
    }
}

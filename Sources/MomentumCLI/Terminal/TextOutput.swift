import Foundation

/// Somewhere text goes: the terminal in the product, a string in tests.
public protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Writes bytes as they are (a WAV or ZIP for `-o -`); throws when they cannot all be written.
    func write(bytes: Data) throws
}

extension TextOutput {
    public func write(bytes: Data) throws { write(String(decoding: bytes, as: UTF8.self)) }
}

/// Standard output or standard error, written unbuffered so a live display updates at once.
public struct FileDescriptorOutput: TextOutput {
    public let descriptor: Int32

    public static let standardOutput = FileDescriptorOutput(descriptor: STDOUT_FILENO)
    public static let standardError = FileDescriptorOutput(descriptor: STDERR_FILENO)

    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.write(descriptor, base + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    public func write(bytes: Data) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw POSIXError.current }
                offset += written
            }
        }
    }

    /// Whether this descriptor is a terminal (so live redrawing and colours make sense).
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// The rows of the terminal this descriptor is, when it is one that says.
    public var terminalRows: Int? {
        guard isTerminal else { return nil }
        var size = winsize()
        #if os(Linux)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = TIOCGWINSZ
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }
}

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `GET` (or any request) over a plain loopback socket, read as the bytes come: for a response
/// that ends before its `Content-Length` (the test clients wait for a whole body, or fail without
/// saying how much came), or a request head the test clients would not write. Reads block, on a
/// thread of Dispatch's; each gives up after 30 s.
final class SocketHTTPGet: Sendable {
    private let descriptor: Int32

    convenience init(port: Int, path: String) throws {
        try self.init(port: port, request: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    }

    /// Sends `request` as it is: a request head a test client would not write (two `Host`
    /// headers, none).
    init(port: Int, request: String) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0, "no connection to port \(port)")
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array(request.utf8)
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        try #require(sent == request.count)
    }

    deinit {
        close(descriptor)
    }

    /// Reads until `enough` says the bytes so far are enough, or the connection is closed (or
    /// reset, or silent for 30 s); returns every byte read.
    func read(until enough: @escaping @Sendable ([UInt8]) -> Bool) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                while !enough(bytes) {
                    let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    bytes += buffer[0..<count]
                }
                continuation.resume(returning: bytes)
            }
        }
    }

    /// The header lines of `bytes` (without the blank line) and how many bytes they take, once
    /// they have all come.
    static func head(_ bytes: [UInt8]) -> (lines: [String], size: Int)? {
        let end = Array("\r\n\r\n".utf8)
        guard bytes.count >= end.count,
            let at = (0...min(bytes.count - end.count, 8_192)).first(where: { Array(bytes[$0..<$0 + end.count]) == end }
            )
        else { return nil }
        let text = String(decoding: bytes[..<at], as: UTF8.self)
        return (text.components(separatedBy: "\r\n"), at + end.count)
    }
}

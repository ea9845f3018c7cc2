import Foundation
import PostgresNIO

extension PostgresLocation {
    /// How each connection to this location is encrypted (``PostgresTLS``), its root certificate
    /// read now.
    func connectionTLS() throws(PostgresLocationError) -> PostgresConnection.Configuration.TLS {
        guard let configuration = try tlsConfiguration() else { return .disable }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            guard let path = tls.rootCertificate else { throw .tlsUnavailable }
            throw .unreadableRootCertificate(path: path)
        }
        return tls == .prefer ? .prefer(context) : .require(context)
    }

    /// The TLS setting as NIO's configuration, its root certificate read (`nil`: no TLS).
    private func tlsConfiguration() throws(PostgresLocationError) -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let path = tls.rootCertificate {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                throw .unreadableRootCertificate(path: path)
            }
            guard !certificates.isEmpty else { throw .unreadableRootCertificate(path: path) }
            configuration.trustRoots = .certificates(certificates)
        }
        return configuration
    }

    /// Checks that the TLS setting can be used — its root certificate read — before anything
    /// connects, so that a wrong path is named as such.
    public func checkTLS() throws(PostgresLocationError) {
        _ = try connectionTLS()
    }
}

import Foundation
import MomentumCore
import MomentumServices
import Testing

/// Where the server may send pushes: public https push services, and the origins the owner
/// admitted — never this machine or the home network, however the address is spelled.
struct PushEndpointTests {
    @Test(arguments: [
        "https://fcm.googleapis.com/fcm/send/cXx9:APA91bH",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn",
        "https://web.push.apple.com/QGuQyavXutnMH?x=1",
        "HTTPS://Web.Push.Apple.COM:443/abc",
        "https://push.example.org./v1",
        "https://8.8.8.8/push",
        "https://[2606:4700::1111]/push",
        "https://[2002:0808:0808::1]/push",
        "https://[::ffff:8.8.8.8]/push",
    ])
    func publicHTTPSPushServicesAreTaken(_ text: String) throws {
        let endpoint = try PushEndpoint(text)
        #expect(endpoint.scheme == "https" && endpoint.port == 443)
        #expect(endpoint.host == endpoint.host.lowercased() && !endpoint.host.hasSuffix("."))
        #expect(endpoint.target.hasPrefix("/"))
    }

    @Test func theOriginIsWhatAVAPIDTokenNames() throws {
        #expect(try PushEndpoint("https://FCM.googleapis.com:443/fcm/send/x").origin == "https://fcm.googleapis.com")
        #expect(try PushEndpoint("https://[2606:4700::1111]/p").origin == "https://[2606:4700::1111]")
        #expect(try PushEndpoint("https://web.push.apple.com?q").target == "/?q")
    }

    @Test(arguments: [
        // Loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, documentation.
        "https://127.0.0.1/p", "https://10.1.2.3/p", "https://172.16.0.1/p", "https://172.31.255.255/p",
        "https://192.168.1.10/p", "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/p",
        "https://224.0.0.1/p", "https://255.255.255.255/p", "https://0.0.0.0/p", "https://192.0.2.1/p",
        "https://198.18.0.1/p", "https://240.0.0.1/p",
        // IPv6: loopback, unspecified, unique-local, link-local, multicast, documentation, and IPv4
        // inside IPv6 (mapped, NAT64, 6to4, compatible).
        "https://[::1]/p", "https://[::]/p", "https://[fd00::1]/p", "https://[fe80::1]/p", "https://[ff02::1]/p",
        "https://[2001:db8::1]/p", "https://[::ffff:127.0.0.1]/p", "https://[::ffff:7f00:1]/p",
        "https://[64:ff9b::10.0.0.1]/p", "https://[2002:7f00:0001::1]/p", "https://[::127.0.0.1]/p",
        "https://[2001::1]/p", "https://[fec0::1]/p",
        // Names of this machine and the local network.
        "https://localhost/p", "https://LOCALHOST./p", "https://push.localhost/p", "https://pi.local/p",
        "https://router.home.arpa/p", "https://nas.lan/p", "https://printer/p", "https://db.internal/p",
    ])
    func addressesAndNamesOfThisMachineAndTheHomeNetworkAreRefused(_ text: String) {
        #expect(throws: PushEndpointError.notPublic) { try PushEndpoint(text) }
    }

    @Test(arguments: [
        // Other spellings of 127.0.0.1 that resolvers accept: refused as not a host.
        "https://2130706433/p", "https://0x7f.1/p", "https://127.1/p", "https://0177.0.0.1/p", "https://127.000.0.1/p",
        "https://0x7f000001/p", "https://1.2.3.4.5/p",
        // Credentials, escapes and characters that read differently to different parsers.
        "https://push.example.org@127.0.0.1/p", "https://user:pw@push.example.org/p",
        "https://127.0.0.1\\@example.org/",
        "https://push%2eexample.org/p", "https://exa mple.org/p", "https://example.org/p#frag", "https://[::1/p",
        "https://[fe80::1%25eth0]/p", "https://[127.0.0.1]/p", "https://example.org:/p", "https://example.org:0443x/p",
        "https://example.org:99999/p", "https://-example.org/p", "https://exa_mple.org/p", "https://bücher.de/p",
        "https:///p", "https://example..org/p", "https://example.org\u{0}/p", "push.example.org/p", "",
    ])
    func spellingsThatCouldMeanAnotherHostAreRefused(_ text: String) {
        #expect(throws: PushEndpointError.malformed) { try PushEndpoint(text) }
    }

    @Test func onlyHTTPSOnPort443AndNotTooLong() {
        #expect(throws: PushEndpointError.notHTTPS) { try PushEndpoint("http://fcm.googleapis.com/fcm/send/x") }
        #expect(throws: PushEndpointError.notHTTPS) { try PushEndpoint("ftp://fcm.googleapis.com/x") }
        #expect(throws: PushEndpointError.notPort443) { try PushEndpoint("https://fcm.googleapis.com:8443/x") }
        let long = "https://fcm.googleapis.com/" + String(repeating: "a", count: 1024 - 27)
        #expect(throws: Never.self) { try PushEndpoint(long) }
        #expect(throws: PushEndpointError.tooLong(maximum: 1024)) { try PushEndpoint(long + "a") }
    }

    @Test func anAdmittedOriginIsTakenExactlyAndNothingBesideIt() throws {
        let admitted = try PushOrigins(["http://127.0.0.1:8181", "https://push.home.arpa/"])
        #expect(admitted.origins == ["http://127.0.0.1:8181", "https://push.home.arpa"])
        let local = try PushEndpoint("http://127.0.0.1:8181/push/abc", admitting: admitted)
        #expect(local.host == "127.0.0.1" && local.port == 8181 && local.target == "/push/abc")
        #expect(try PushEndpoint("https://push.home.arpa/x", admitting: admitted).port == 443)
        // Another port, scheme or address of the same machine is not admitted.
        #expect(throws: PushEndpointError.notHTTPS) { try PushEndpoint("http://127.0.0.1:8182/p", admitting: admitted) }
        #expect(throws: PushEndpointError.notPublic) {
            try PushEndpoint("https://127.0.0.1:443/p", admitting: admitted)
        }
        #expect(throws: PushEndpointError.notHTTPS) { try PushEndpoint("http://localhost:8181/p", admitting: admitted) }
        // An origin is only an origin: no path, no credentials.
        #expect(throws: PushEndpointError.malformed) { try PushOrigins(["http://127.0.0.1:8181/push"]) }
        #expect(throws: PushEndpointError.malformed) { try PushOrigins(["http://u@127.0.0.1:8181"]) }
        #expect(throws: PushEndpointError.malformed) { try PushOrigins(["*"]) }
    }

    @Test func addressesPrintAsTheyAreRead() throws {
        #expect(try #require(PushAddress(literal: "8.8.4.4")).description == "8.8.4.4")
        #expect(PushAddress(literal: "::ffff:127.0.0.1")?.isPublic == false)
        #expect(PushAddress(literal: "2606:4700::1111")?.isPublic == true)
        #expect(PushAddress(literal: "300.1.1.1") == nil)
        #expect(PushAddress(bytes: [1, 2, 3]) == nil)
    }
}

/// Every refusal of Web Push reads as a sentence in each language, its numbers filled in.
struct PushErrorMessageTests {
    @Test(arguments: Language.allCases)
    func everyRefusalIsASentenceWithItsNumbers(_ language: Language) {
        let catalog = StringCatalog.shared(for: language)
        let endpoint: [PushEndpointError] = [.malformed, .tooLong(maximum: 1024), .notHTTPS, .notPort443, .notPublic]
        let push: [WebPushError] = [
            .malformedKeys, .messageTooLarge(bytes: 5000, maximum: 3993), .malformedServerKey, .badContact,
        ]
        let messages =
            endpoint.map { ErrorMessages.message(for: $0, catalog: catalog) }
            + push.map { ErrorMessages.message(for: $0, catalog: catalog) }
        #expect(Set(messages).count == messages.count)
        for message in messages {
            #expect(message.count > 30 && message.hasSuffix(".") && !message.contains("{"), "\(message)")
        }
        #expect(messages[1].contains("1024") && messages[6].contains("5000") && messages[6].contains("3993"))
    }
}

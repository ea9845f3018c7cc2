import Foundation
import Logging
import MomentumServices
import ServiceLifecycle

/// The push outbox's sender (``PushDelivery``), run with the server in its service group: it
/// plans and sends in the background, never in a request handler, and stops when the server shuts
/// down (each push has its own connection, closed once answered).
struct PushSenderService: Service {
    let delivery: PushDelivery

    init(configuration: ServerConfiguration, dependencies: ServerDependencies) {
        var pushLogger = dependencies.logger
        pushLogger[metadataKey: "component"] = "push"
        let logger = pushLogger
        self.delivery = PushDelivery(
            household: dependencies.household, transport: HTTPPushTransport(admitting: configuration.pushOrigins),
            configuration: .init(contact: configuration.pushContact, admitted: configuration.pushOrigins),
            now: dependencies.now, makeID: dependencies.makeID,
            failed: { step, error, person in
                logger.error(
                    "push delivery failed a round",
                    metadata: ["step": "\(step)", "person": "\(person.map(String.init) ?? "-")", "error": "\(error)"])
            })
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await delivery.run() }
    }
}

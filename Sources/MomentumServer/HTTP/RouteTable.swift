import Hummingbird
import Synchronization

/// The routes the router registered, filled once the router is built: lets a 404 become a 405
/// when the path exists for other methods, and lets a test compare them with the OpenAPI document.
final class RouteTable: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: String)]>([])

    func register(_ descriptions: [(path: RouterPath, method: String)]) {
        routes.withLock { $0 = descriptions }
    }

    /// The methods registered for a concrete request path, sorted.
    func methods(forPath path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return routes.withLock { routes in
            Set(
                routes.filter { route in
                    route.path.components.count == segments.count
                        && zip(route.path.components, segments).allSatisfy { $0 ~= $1 }
                }.map(\.method)
            ).sorted()
        }
    }
}

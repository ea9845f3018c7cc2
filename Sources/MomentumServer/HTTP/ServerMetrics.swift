import Foundation
import Hummingbird
import Synchronization

/// Request counts, durations and logged sessions, written in the Prometheus text format.
///
/// Hand-written: three metric families do not need a metrics backend and its bootstrapping.
final class ServerMetrics: Sendable {
    /// Upper bounds of the duration histogram's buckets, in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct RequestKey: Hashable, Comparable {
        var method: String
        var route: String
        var status: Int

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.route, lhs.method, lhs.status) < (rhs.route, rhs.method, rhs.status)
        }
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var total = 0
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var durations: [String: Histogram] = [:]
        var sessionsLogged: [String: Int] = [:]
    }

    private let state = Mutex(State())

    func recordRequest(method: String, route: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[RequestKey(method: method, route: route, status: status), default: 0] += 1
            var histogram = state.durations[route] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.total += 1
            state.durations[route] = histogram
        }
    }

    func recordSessionLogged(kind: String) {
        state.withLock { $0.sessionsLogged[kind, default: 0] += 1 }
    }

    /// The Prometheus text exposition (version 0.0.4).
    var text: String {
        state.withLock { state in
            var lines = [
                "# HELP momentum_http_requests_total HTTP requests answered, by route and status.",
                "# TYPE momentum_http_requests_total counter",
            ]
            for (key, count) in state.requests.sorted(by: { $0.key < $1.key }) {
                lines.append(
                    "momentum_http_requests_total{method=\"\(key.method)\",route=\"\(escape(key.route))\","
                        + "status=\"\(key.status)\"} \(count)")
            }
            lines += [
                "# HELP momentum_http_request_duration_seconds Time to answer HTTP requests, by route.",
                "# TYPE momentum_http_request_duration_seconds histogram",
            ]
            for (route, histogram) in state.durations.sorted(by: { $0.key < $1.key }) {
                let label = "route=\"\(escape(route))\""
                for (index, bound) in Self.buckets.enumerated() {
                    lines.append(
                        "momentum_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(histogram.counts[index])"
                    )
                }
                lines.append("momentum_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.total)")
                lines.append("momentum_http_request_duration_seconds_sum{\(label)} \(histogram.sum)")
                lines.append("momentum_http_request_duration_seconds_count{\(label)} \(histogram.total)")
            }
            lines += [
                "# HELP momentum_sessions_logged_total Practice sessions logged through the server, by kind.",
                "# TYPE momentum_sessions_logged_total counter",
            ]
            for (kind, count) in state.sessionsLogged.sorted(by: { $0.key < $1.key }) {
                lines.append("momentum_sessions_logged_total{kind=\"\(kind)\"} \(count)")
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private func escape(_ label: String) -> String {
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}

/// Counts every answer, errors included, under the route pattern that matched (not the raw path,
/// so ids do not explode the label set).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = started.duration(to: .now)
        // Hummingbird labels unmatched requests "NotFound" and its file middleware's "FileMiddleware".
        var route = context.endpointPath ?? "unmatched"
        if route == "FileMiddleware" { route = "static" }
        metrics.recordRequest(
            method: request.method.rawValue, route: route,
            status: response.status.code,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        return response
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MomentumServer

@Suite("The OpenAPI document describes exactly the routes the router has")
struct OpenAPIDocumentTests {
    /// `METHOD /path` for every operation in the document: a path is a line of two spaces, a
    /// slash and a colon; its operations are the lines of four spaces and a method name below it.
    static func documentedRoutes(_ yaml: String) -> Set<String> {
        var routes = Set<String>()
        var inPaths = false
        var path: String?
        let methods = ["get", "put", "post", "patch", "delete", "head", "options"]
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let name = line.trimmingCharacters(in: .whitespaces).dropLast()
                if methods.contains(String(name)) { routes.insert("\(name.uppercased()) \(path)") }
            }
        }
        return routes
    }

    @Test func everyRegisteredRouteIsDocumentedAndNothingElse() async throws {
        let server = try await TestServer()
        let registered = Set(
            server.personRouter.routes.map { route in
                let path = route.path.components.map { component in
                    // `:id` and `{id}` both read as `{id}`, as OpenAPI writes them.
                    let text = component.description
                    return text.hasPrefix(":") ? "{\(text.dropFirst())}" : text
                }.joined(separator: "/")
                return "\(route.method.rawValue) /\(path)"
            })
        let documented = Self.documentedRoutes(String(decoding: OpenAPIDocument.bytes, as: UTF8.self))
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(registered).sorted() == [], "documented routes the router does not have")
        #expect(registered.count > 40)
    }

    @Test func theDocumentIsServedAsYAMLAndDeclaresOpenAPI31() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/openapi.yaml")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(response.text.hasPrefix("openapi: 3.1.0\n"))
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MomentumServer

/// Every number field of every request body in `openapi.yaml`, and every numeric query
/// parameter, gets values no practice has. A trap in the server stops this test process, so a
/// crash shows up as this suite failing (issue 21).
@Suite("Hostile numbers never crash the server")
struct HostileNumberTests {
    /// Numbers that must be refused wherever a number is taken, as JSON text.
    static let refused = [
        "1e300", "-1.7e308", "9223372036854775808", "-9223372036854775809", "\"NaN\"", "NaN", "1e999",
    ]
    /// Numbers that are valid JSON numbers and may be in range for some field: never a 5xx.
    static let edgy = ["1e-320", "9223372036854775807", "-9223372036854775808", "-0"]

    // MARK: The document

    struct NumberField: CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        /// Keys from the body's top level down to the number.
        var keys: [String]
        /// The number's own schema.
        var schema: [String: Any]
        /// Values the body needs elsewhere for the number to be read, e.g. `kind: breathing`
        /// for a breathing plan's field.
        var overrides: [([String], String)]
        /// A body that is valid apart from the number: required fields and defaults filled in.
        var skeleton: [String: Any]

        var description: String { "\(method) \(path) \(keys.joined(separator: "."))" }
    }

    static var document: [String: Any] {
        MinimalYAML.parse(String(decoding: OpenAPIDocument.bytes, as: UTF8.self)) as? [String: Any] ?? [:]
    }

    static func resolve(_ schema: Any?, in document: [String: Any]) -> [String: Any] {
        guard var schema = schema as? [String: Any] else { return [:] }
        var depth = 0
        while let reference = schema["$ref"] as? String, depth < 10 {
            var node: Any = document
            for key in reference.dropFirst(2).split(separator: "/") {
                node = (node as? [String: Any])?[String(key)] ?? [:]
            }
            schema = node as? [String: Any] ?? [:]
            depth += 1
        }
        return schema
    }

    static func isNumeric(_ schema: [String: Any]) -> Bool {
        let types = (schema["type"] as? [Any]) ?? [schema["type"] as Any]
        return types.contains { ($0 as? String) == "number" || ($0 as? String) == "integer" }
    }

    typealias NumberPath = (keys: [String], schema: [String: Any], overrides: [([String], String)])

    /// Paths to every number inside `schema` (through properties, `oneOf`/`anyOf`/`allOf`). A
    /// property that is one of n schemas next to an enum of n values (`kind` and `plan`) is read
    /// as chosen by that enum: the i-th schema's numbers come with the i-th value.
    static func numberKeys(_ schema: Any?, in document: [String: Any], depth: Int = 0) -> [NumberPath] {
        let schema = resolve(schema, in: document)
        guard depth < 6 else { return [] }
        if isNumeric(schema) { return [([], schema, [])] }
        var found: [NumberPath] = []
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
            let resolved = resolve(property, in: document)
            let branches = resolved["oneOf"] as? [Any] ?? []
            let discriminator = properties.first { _, sibling in
                (resolve(sibling, in: document)["enum"] as? [Any])?.count == branches.count
            }
            if branches.count > 1, let (key, sibling) = discriminator,
                let choices = resolve(sibling, in: document)["enum"] as? [Any]
            {
                for (branch, choice) in zip(branches, choices) {
                    found += numberKeys(branch, in: document, depth: depth + 1).map {
                        ([name] + $0.keys, $0.schema, $0.overrides + [([key], "\(choice)")])
                    }
                }
            } else {
                found += numberKeys(property, in: document, depth: depth + 1).map {
                    ([name] + $0.keys, $0.schema, $0.overrides)
                }
            }
        }
        for combination in ["oneOf", "anyOf", "allOf"] {
            for branch in schema[combination] as? [Any] ?? [] {
                found += numberKeys(branch, in: document, depth: depth + 1)
            }
        }
        return found
    }

    /// Whether a field may take `value` (JSON text): only when its schema bounds it on both
    /// sides and the value lies within, as 2^63 does for a seed (a `UInt64`).
    static func isDeclaredInRange(_ value: String, _ schema: [String: Any]) -> Bool {
        guard
            let number = Double(value), let minimum = (schema["minimum"] as? String).flatMap(Double.init),
            let maximum = (schema["maximum"] as? String).flatMap(Double.init)
        else { return false }
        return (minimum...maximum).contains(number)
    }

    /// A value of `schema` that its rules accept, as far as this test can tell.
    static func example(_ schema: Any?, in document: [String: Any], depth: Int = 0) -> Any {
        let schema = resolve(schema, in: document)
        if let value = schema["default"] { return jsonValue(value, schema) }
        if let choices = schema["enum"] as? [Any], let first = choices.first { return first }
        if let branch = (schema["oneOf"] ?? schema["anyOf"]) as? [Any], let first = branch.first {
            return example(first, in: document, depth: depth + 1)
        }
        if isNumeric(schema) { return jsonValue(schema["minimum"] ?? "1", schema) }
        let type = (schema["type"] as? String) ?? ((schema["type"] as? [Any])?.first as? String) ?? "object"
        switch type {
        case "boolean": return false
        case "array": return [Any]()
        case "string":
            return (schema["format"] as? String) == "date-time" ? "2027-01-15T08:00:00Z" : "x"
        default:
            guard depth < 6 else { return [String: Any]() }
            var object: [String: Any] = [:]
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [Any] ?? [] {
                guard let name = name as? String else { continue }
                object[name] = example(properties[name], in: document, depth: depth + 1)
            }
            for (name, property) in properties where resolve(property, in: document)["default"] != nil {
                object[name] = example(property, in: document, depth: depth + 1)
            }
            return object
        }
    }

    /// A YAML scalar as the JSON value the schema means.
    static func jsonValue(_ value: Any, _ schema: [String: Any]) -> Any {
        guard let text = value as? String else { return value }
        if isNumeric(schema), let number = Double(text) { return number }
        if text == "true" || text == "false" { return text == "true" }
        return text
    }

    static func numberFields() -> [NumberField] {
        let document = document
        var fields: [NumberField] = []
        for (path, operations) in (document["paths"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (method, operation) in (operations as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard
                    let method = HTTPRequest.Method(method.uppercased()),
                    let body = (operation as? [String: Any])?["requestBody"],
                    let content = resolve(body, in: document)["content"] as? [String: Any],
                    let schema = (content["application/json"] as? [String: Any])?["schema"]
                else { continue }
                let skeleton = example(schema, in: document) as? [String: Any] ?? [:]
                for found in numberKeys(schema, in: document) where !found.keys.isEmpty {
                    fields.append(
                        NumberField(
                            method: method, path: path, keys: found.keys, schema: found.schema,
                            overrides: found.overrides, skeleton: skeleton))
                }
            }
        }
        return fields
    }

    /// `(path, name)` of every query parameter that holds a number (by its schema, or a year or
    /// month given as digits).
    static func numberQueries() -> [(path: String, name: String)] {
        let document = document
        var found: [(String, String)] = []
        for (path, operations) in (document["paths"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let get = (operations as? [String: Any])?["get"] as? [String: Any] else { continue }
            for parameter in get["parameters"] as? [Any] ?? [] {
                let parameter = resolve(parameter, in: document)
                guard (parameter["in"] as? String) == "query", let name = parameter["name"] as? String else {
                    continue
                }
                if isNumeric(resolve(parameter["schema"], in: document)) || ["year", "month"].contains(name) {
                    found.append((path, name))
                }
            }
        }
        return found
    }

    // MARK: The requests

    /// Data that a refused request must leave as it was.
    static let snapshots = [
        "/api/v1/log", "/api/v1/timers", "/api/v1/runs", "/api/v1/settings", "/api/v1/morse/settings",
        "/api/v1/breathing/presets", "/api/v1/workouts/programs", "/api/v1/sync/pull?limit=1000",
    ]

    static func snapshot(_ client: some TestClientProtocol, ids: [String: String]) async throws -> [String] {
        var texts: [String] = []
        for path in snapshots + ["/api/v1/morse/sessions/\(ids["morse"] ?? "")"] {
            texts.append(try await client.send(.get, path).text)
        }
        return texts
    }

    /// Things to act on, so routes with an `{id}` reach their body: a running meditation, a
    /// started Morse session, a timer with an item and a logged record.
    static func makeFixtures(_ client: some TestClientProtocol) async throws -> [String: String] {
        func id(_ response: TestResponse, _ key: String = "id") throws -> String {
            try #require(response.object[key] as? String, "\(response.status) \(response.text)")
        }
        var ids: [String: String] = [:]
        ids["run"] = try id(
            await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":{"durationMs":600000,"countdownMs":0}}"#))
        ids["morse"] = try id(await client.send(.post, "/api/v1/morse/sessions", json: #"{"direction":"receive"}"#))
        try await client.send(.post, "/api/v1/morse/sessions/\(ids["morse"] ?? "")/start")
        ids["timer"] = try id(
            await client.send(.post, "/api/v1/timers", json: #"{"name":"Focus","durationMs":1500000}"#))
        ids["record"] = try id(
            await client.send(
                .post, "/api/v1/log",
                json: #"{"kind":"meditation","start":"2027-01-15T07:00:00Z","durationMs":600000}"#))
        return ids
    }

    /// `path` with its `{…}` parameters replaced by the fixtures (an unknown id elsewhere).
    static func concrete(_ path: String, ids: [String: String]) -> String {
        let unknown = "00000000-0000-0000-0000-00000000ffff"
        let owner =
            path.hasPrefix("/api/v1/runs")
            ? "run"
            : path.hasPrefix("/api/v1/morse/sessions")
                ? "morse"
                : path.hasPrefix("/api/v1/timers") ? "timer" : path.hasPrefix("/api/v1/log") ? "record" : ""
        return
            path
            .replacingOccurrences(of: "{id}", with: ids[owner] ?? unknown)
            .replacingOccurrences(of: "{item}", with: unknown)
            .replacingOccurrences(of: "{kind}", with: "meditation")
            .replacingOccurrences(of: "{cue}", with: "startGong")
    }

    /// `skeleton` with `value` (JSON text) at the field's keys and its overrides, as JSON text.
    static func body(_ skeleton: [String: Any], field: NumberField, value: String) throws -> String {
        let marker = "\"__HOSTILE__\""
        func place(_ object: [String: Any], _ keys: ArraySlice<String>, _ leaf: Any) -> [String: Any] {
            guard let key = keys.first else { return object }
            var object = object
            object[key] = keys.count == 1 ? leaf : place(object[key] as? [String: Any] ?? [:], keys.dropFirst(), leaf)
            return object
        }
        var object = skeleton
        // A plan of another kind than the skeleton's is read without the skeleton's plan fields.
        if !field.overrides.isEmpty, let first = field.keys.first { object[first] = nil }
        for (keys, choice) in field.overrides { object = place(object, keys[...], choice) }
        object = place(object, field.keys[...], "__HOSTILE__")
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: marker, with: value)
    }

    // MARK: The tests

    @Test func theDocumentHasTheNumberFieldsThatCrashedTheServer() {
        let fields = Self.numberFields().map(\.description)
        #expect(fields.contains("PATCH /api/v1/morse/settings riseMilliseconds"))
        #expect(fields.contains("POST /api/v1/morse/sessions/{id}/answer responseMs"))
        #expect(fields.contains("POST /api/v1/log energyKilocalories"))
        #expect(fields.count > 30)
        let queries = Self.numberQueries().map { "\($0.path)?\($0.name)" }
        #expect(queries.contains("/api/v1/reminders?days"))
        #expect(queries.contains("/api/v1/sync/pull?limit"))
        #expect(queries.contains("/api/v1/progress/year?year"))
    }

    @Test func everyNumberFieldRefusesHostileNumbersAndChangesNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let ids = try await Self.makeFixtures(client)
            let before = try await Self.snapshot(client, ids: ids)
            for field in Self.numberFields() {
                let path = Self.concrete(field.path, ids: ids)
                for value in Self.refused {
                    for skeleton in [field.skeleton, [:]] {
                        let json = try Self.body(skeleton, field: field, value: value)
                        let response = try await client.send(field.method, path, json: json)
                        let taken = (200..<300).contains(response.status.code)
                        #expect(
                            (400..<500).contains(response.status.code)
                                || (taken && Self.isDeclaredInRange(value, field.schema)),
                            "\(field.method) \(path) \(json) answered \(response.status) \(response.text)")
                    }
                }
            }
            let after = try await Self.snapshot(client, ids: ids)
            for (path, (old, new)) in zip(Self.snapshots + ["morse session"], zip(before, after)) {
                #expect(old == new, "\(path) changed")
            }
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test func edgeNumbersNeverAnswerAServerError() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let ids = try await Self.makeFixtures(client)
            for field in Self.numberFields() where !field.path.contains("/render/") {
                let path = Self.concrete(field.path, ids: ids)
                for value in Self.edgy {
                    for skeleton in [field.skeleton, [:]] {
                        let json = try Self.body(skeleton, field: field, value: value)
                        let response = try await client.send(field.method, path, json: json)
                        #expect(response.status.code < 500, "\(field.method) \(path) \(json) answered \(response.text)")
                    }
                }
            }
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test func numericQueryParametersRefuseHostileNumbers() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let ids = try await Self.makeFixtures(client)
            let before = try await Self.snapshot(client, ids: ids)
            for (path, name) in Self.numberQueries() {
                // The render route would render a whole sit for a valid value; its bounds refuse these.
                let values =
                    path.contains("/render/")
                    ? ["1e300", "-1.7e308", "9223372036854775808", "NaN"]
                    : [
                        "1e300", "-1.7e308", "9223372036854775808", "-9223372036854775809", "NaN", "1e-320",
                        "9223372036854775807", "-9223372036854775808", "inf",
                    ]
                for value in values {
                    // The volume is read only for an ambient bed under breathing or a workout.
                    let uri =
                        name == "volume"
                        ? Self.concrete(path, ids: ids).replacingOccurrences(
                            of: "meditation.wav", with: "breathing.wav")
                            + "?ambient=rain&volume=\(value)"
                        : Self.concrete(path, ids: ids) + "?\(name)=\(value)"
                    let response = try await client.send(.get, uri)
                    #expect(response.status.code < 500, "GET \(uri) answered \(response.status) \(response.text)")
                    if path.contains("/render/") {
                        #expect((400..<500).contains(response.status.code), "GET \(uri) answered \(response.status)")
                    }
                }
            }
            #expect(try await Self.snapshot(client, ids: ids) == before)
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }
}

import Foundation
import Testing

/// The seam between the services and the two stores (docs/architecture.md): both stores implement
/// `MomentumStoreContract`, neither knows the other, the contract knows no store, and the
/// services know only the contract. Read from
/// Package.swift and the sources themselves, so a new `import` that crosses the seam fails here.
@Suite struct StoreBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The modules each file of `target` imports.
    static func imports(of target: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var modules = Set<String>()
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                if words.count == 2, words[0] == "import" { modules.insert(String(words[1])) }
            }
        }
        return modules
    }

    /// The names in the `dependencies:` list of `target` in Package.swift.
    static func packageDependencies(of target: String) throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: "name: \"\(target)\""))
        let rest = manifest[start.upperBound...]
        let end = rest.range(of: "swiftSettings")?.lowerBound ?? rest.endIndex
        let quoted = rest[..<end].split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element)
        }
        return Set(quoted)
    }

    @Test func neitherStoreImportsTheOther() throws {
        #expect(try !Self.imports(of: "MomentumPostgres").contains("MomentumStore"))
        #expect(try !Self.imports(of: "MomentumStore").contains("MomentumPostgres"))
        #expect(try !Self.packageDependencies(of: "MomentumPostgres").contains("MomentumStore"))
        #expect(try !Self.packageDependencies(of: "MomentumStore").contains("MomentumPostgres"))
    }

    @Test func bothStoresImplementTheContract() throws {
        for store in ["MomentumStore", "MomentumPostgres"] {
            #expect(try Self.imports(of: store).contains("MomentumStoreContract"), "\(store)")
            #expect(try Self.packageDependencies(of: store).contains("MomentumStoreContract"), "\(store)")
        }
    }

    @Test func theContractKnowsNoStoreAndNoDatabaseLibrary() throws {
        let allowed: Set = ["Foundation", "Dispatch", "Synchronization", "MomentumCore"]
        #expect(try Self.imports(of: "MomentumStoreContract").subtracting(allowed).isEmpty)
        #expect(try Self.packageDependencies(of: "MomentumStoreContract") == ["MomentumCore"])
    }

    /// The services ask the contract; which store answers is decided in MomentumComposition.
    @Test func theServicesKnowNoStore() throws {
        let stores: Set = ["MomentumStore", "MomentumPostgres", "GRDB", "PostgresNIO"]
        #expect(try Self.imports(of: "MomentumServices").isDisjoint(with: stores))
        #expect(try Self.packageDependencies(of: "MomentumServices").isDisjoint(with: stores))
        #expect(try Self.imports(of: "MomentumServices").contains("MomentumStoreContract"))
        #expect(
            try Self.packageDependencies(of: "MomentumComposition").isSuperset(of: [
                "MomentumStore", "MomentumPostgres",
            ]))
    }

    /// The helpers read what they should: a test that could not fail would prove nothing.
    @Test func theReadersSeeTheRealManifest() throws {
        #expect(try Self.packageDependencies(of: "MomentumStore").contains("GRDB"))
        #expect(try Self.imports(of: "MomentumPostgres").contains("PostgresNIO"))
    }
}

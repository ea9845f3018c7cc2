import Foundation
import MomentumStoreTestSupport
import Testing

/// What a `swift test` without PostgreSQL leaves out, said in one line rather than found by
/// reading a long log: the tests that run only on PostgreSQL were skipped, and the tests run on
/// every store ran on SQLite alone. Counted from the test sources, so a new store test counts
/// without anyone updating a number here.
struct StoreTestCount: Equatable {
    /// Tests (and tests of suites) enabled only with `MOMENTUM_TEST_POSTGRES_URL`.
    var onlyOnPostgres = 0
    /// Tests whose arguments are ``StoreKind/available``: one case per store.
    var onEveryStore = 0

    static let gate = ".enabled(if: StoreKind.postgresURL != nil)"

    static func count(in source: String) -> StoreTestCount {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.hasPrefix("//") }
        // A suite's gate is in its `@Suite(` attribute (on one line or several, up to its
        // `struct`); a test's in its `@Test(` line. A test belongs to the last suite above it.
        var counted = StoreTestCount()
        var suiteGated = false
        var inSuiteAttribute = false
        for line in lines {
            if line.hasPrefix("@Suite") {
                (suiteGated, inSuiteAttribute) = (false, true)
            }
            if inSuiteAttribute {
                suiteGated = suiteGated || line.contains(gate)
                if line.hasPrefix("struct") || line.hasPrefix("final class") || line.hasPrefix("class") {
                    inSuiteAttribute = false
                }
            }
            if line.hasPrefix("@Test"), suiteGated || line.contains(gate) { counted.onlyOnPostgres += 1 }
            if line.contains("arguments: StoreKind.available") { counted.onEveryStore += 1 }
        }
        return counted
    }

    static func inTests(at folder: URL) throws -> StoreTestCount {
        var total = StoreTestCount()
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        for case let file as URL in files
        where file.pathExtension == "swift" && file.lastPathComponent != "PostgresCoverageTests.swift" {
            let counted = count(in: try String(contentsOf: file, encoding: .utf8))
            total.onlyOnPostgres += counted.onlyOnPostgres
            total.onEveryStore += counted.onEveryStore
        }
        return total
    }

    var sentence: String {
        "Without PostgreSQL: \(onlyOnPostgres) store tests were skipped and \(onEveryStore) ran on SQLite only. "
            + "`bash scripts/test-postgres.sh` runs them all on both stores (or set MOMENTUM_TEST_POSTGRES_URL)."
    }
}

@Suite("How many store tests ran without PostgreSQL")
struct PostgresCoverageTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Shown as a known issue, so the run's last line counts it ("with 2 known issues") and its
    /// sentence stands out of the log; CI sets the URL, and fails on any skipped test.
    @Test(.enabled(if: StoreKind.postgresURL == nil))
    func aRunWithoutPostgresSaysHowManyStoreTestsItLeftOut() throws {
        let count = try StoreTestCount.inTests(at: Self.tests)
        #expect(count.onlyOnPostgres > 0 && count.onEveryStore > 0)
        print(count.sentence)
        withKnownIssue { Issue.record(Comment(rawValue: count.sentence)) }
    }

    @Test func theCountReadsSuiteAndTestGatesAndStoreArguments() {
        let suite = """
            @Suite("PostgreSQL: a thing", \(StoreTestCount.gate))
            struct A {
                @Test func one() {}
                // @Test func commentedOut() {}
                @Test(arguments: [1, 2]) func two(n: Int) {}
            }

            @Suite(
                "PostgreSQL: another",
                \(StoreTestCount.gate))
            struct B {
                @Test func three() {}
            }

            @Suite("Pure: no database")
            struct C {
                @Test func pure() {}
            }
            """
        #expect(StoreTestCount.count(in: suite) == StoreTestCount(onlyOnPostgres: 3, onEveryStore: 0))
        let mixed = """
            struct B {
                @Test(\(StoreTestCount.gate)) func acrossServers() {}
                @Test func onSQLite() {}
                @Test(arguments: StoreKind.available) func onEvery(kind: StoreKind) {}
                @Test(
                    arguments: StoreKind.available, [1, 2])
                func onEveryWithMore(kind: StoreKind, n: Int) {}
            }
            """
        #expect(StoreTestCount.count(in: mixed) == StoreTestCount(onlyOnPostgres: 1, onEveryStore: 2))
    }
}

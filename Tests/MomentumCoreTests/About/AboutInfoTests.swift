import Foundation
import Testing

@testable import MomentumCore

@Suite("About: the version, the promises and the open-source notices")
struct AboutInfoTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `.package(url: "…")` of `Package.swift`: its URL.
    static func packageURLs() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.package\(\s*url:\s*"([^"]+)""#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func identity(of url: String) -> String {
        var last = url.split(separator: "/").last.map(String.init) ?? url
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.lowercased()
    }

    @Test func everyDependencyOfPackageSwiftIsListedAndNothingElse() throws {
        let urls = try Self.packageURLs()
        #expect(urls.count >= 9)
        let declared = Set(urls.map(Self.identity))
        let listed = Set(OpenSourceNotice.all.compactMap(\.package))
        #expect(declared.subtracting(listed).isEmpty, "not in the About view: \(declared.subtracting(listed))")
        #expect(listed.subtracting(declared).isEmpty, "not a dependency: \(listed.subtracting(declared))")
        #expect(OpenSourceNotice.all.contains { $0.name == "SQLite" && $0.license == "blessing" })
    }

    /// Where the packages are checked out (a build has run), each license agrees with its file.
    @Test func eachLicenseIsTheOneItsCheckedOutPackageStates() throws {
        let checkouts = Self.root.appendingPathComponent(".build/checkouts")
        let urls = try Self.packageURLs()
        for notice in OpenSourceNotice.all {
            guard let package = notice.package,
                let url = urls.first(where: { Self.identity(of: $0) == package })
            else { continue }
            let folder = checkouts.appendingPathComponent(
                String(url.split(separator: "/").last ?? "").replacingOccurrences(of: ".git", with: ""))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard let file = names.first(where: { $0.uppercased().hasPrefix("LICENSE") }) else { continue }
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            switch notice.license {
            case "MIT": #expect(text.contains("Permission is hereby granted, free of charge"), "\(package)")
            case "Apache-2.0":
                #expect(text.contains("Apache License") && text.contains("Version 2.0"), "\(package)")
                #expect(!text.contains("Runtime Library Exception"), "\(package) has the Swift exception")
            case "Apache-2.0 WITH Swift-exception":
                #expect(text.contains("Apache License") && text.contains("Runtime Library Exception"), "\(package)")
            default: Issue.record("\(package): unexpected license \(notice.license)")
            }
        }
    }

    @Test func theViewSaysWhatMomentumIsAndKeepsItsPromisesInBothLanguages() {
        for language in Language.allCases {
            let about = AboutInfo(version: "1.2.3", language: language)
            #expect(about.version == "1.2.3")
            #expect(about.versionText.contains("1.2.3"))
            for text in [about.title, about.summary, about.privacy, about.sounds, about.librariesIntro] {
                #expect(!text.isEmpty && !text.contains("about."))
            }
            #expect(about.libraries.count == OpenSourceNotice.all.count)
            #expect(about.libraries.allSatisfy { !$0.role.isEmpty && $0.licenseText.contains($0.license) })
        }
        let german = AboutInfo(version: "1", language: .german)
        #expect(german.sounds.contains("erzeugt"))
        #expect(AboutInfo(version: "1", language: .english).privacy.contains("stays on your own server"))
    }
}

import Foundation
import MomentumTestSupport
import Testing

@testable import MomentumCore

@Suite("Localization, affirmations and the ambient catalog")
struct LocalizationTests {
    @Test(arguments: Language.allCases)
    func everyKeyExistsInEveryLanguageAndNoCatalogKeyIsUnknown(_ language: Language) throws {
        let catalog = try StringCatalog(
            language: language,
            json: language == .english ? PackageResources.strings_en_json : PackageResources.strings_de_json)
        let declared = try DeclaredStringKeys.all()
        let expected = Set(declared.map(\.rawValue))
        let present = Set(catalog.strings.keys)
        #expect(expected.subtracting(present).sorted() == [], "missing in \(language)")
        #expect(present.subtracting(expected).sorted() == [], "unknown keys in \(language)")
        for key in declared {
            let text = catalog.strings[key.rawValue] ?? ""
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(key) is blank in \(language)")
        }
        #expect(Set(catalog.lists.keys) == Set(StringList.allCases.map(\.rawValue)))
    }

    /// A value that ends its own sentence replaces the template's full stop after it, and only there.
    @Test(arguments: [
        ("by {teacher}.", "Mara L.", "by Mara L."),
        ("by {teacher}.", "Mara", "by Mara."),
        ("Signed in as {name}.", "Who?", "Signed in as Who?"),
        ("{name} is now called {name}.", "Dr.", "Dr. is now called Dr."),
        ("“{name}” – {teacher}", "A.", "“A.” – A."),
        ("{teacher}, 5 min", "Mara L.", "Mara L., 5 min"),
        ("Not an address to listen on: {name}.", ".", "Not an address to listen on: .."),
        ("Not in {name}.", "../", "Not in ../."),
        ("by {teacher}.", "Ünal Ö.", "by Ünal Ö."),
    ])
    func aValueEndingASentenceTakesThePlaceOfTheFullStop(template: String, value: String, expected: String) {
        #expect(StringCatalog.fill(template, ["teacher": value, "name": value]) == expected)
    }

    /// Each key is declared once, under one name, and the names the code uses are the declared ones.
    @Test func declaredKeysAreUniqueAndResolveToThemselves() throws {
        let declared = try DeclaredStringKeys.all()
        #expect(declared.count > 1000)
        #expect(Set(declared.map(\.name)).count == declared.count)
        #expect(Set(declared.map(\.rawValue)).count == declared.count)
        for key in declared {
            #expect(StringKey(rawValue: key.rawValue)?.rawValue == key.rawValue, "\(key)")
        }
        #expect(StringKey.phaseCountdown.rawValue == "phase.countdown")
        #expect(StringKey(rawValue: "phase.nothing") == nil, "only keys the catalogs hold")
    }

    @Test func placeholdersMatchAcrossLanguages() throws {
        let english = StringCatalog.shared(for: .english)
        let german = StringCatalog.shared(for: .german)
        func placeholders(_ text: String) -> Set<String> {
            Set(text.matches(of: /\{([a-z]+)\}/).map { String($0.output.1) })
        }
        for key in try DeclaredStringKeys.all() {
            let (inEnglish, inGerman) = (english.strings[key.rawValue] ?? "", german.strings[key.rawValue] ?? "")
            #expect(placeholders(inEnglish) == placeholders(inGerman), "\(key)")
        }
    }

    @Test func affirmationListsHaveTheSameLengthInBothLanguages() {
        for list in StringList.allCases {
            let english = StringCatalog.shared(for: .english).list(list)
            #expect(english.count >= 5)
            #expect(english.count == StringCatalog.shared(for: .german).list(list).count)
        }
    }

    @Test(arguments: Language.allCases)
    func affirmationsRotateByOneEachSitAndEachListWrapsOnItsOwnLength(_ language: Language) {
        let catalog = StringCatalog.shared(for: language)
        let countdown = catalog.list(.countdownAffirmations)
        let running = catalog.list(.runningAffirmations)
        #expect(countdown.count != running.count, "different lengths make the pairs drift")
        let starts = (0..<(countdown.count * running.count + 3)).map {
            Affirmations(rotationIndex: $0, catalog: catalog)
        }
        for (index, affirmations) in starts.enumerated() {
            #expect(affirmations.countdown == countdown[index % countdown.count])
            #expect(affirmations.running == running[index % running.count])
        }
        #expect(starts[0] != starts[1])
        #expect(starts[countdown.count].countdown == starts[0].countdown)
        #expect(starts[countdown.count].running != starts[0].running)
    }

    @Test func formatReplacesNamedPlaceholders() {
        #expect(StringCatalog.shared(for: .german).format(.playerRemaining, ["time": "09:59"]) == "noch 09:59")
        #expect(StringCatalog.shared(for: .english).format(.playerRemaining, ["time": "09:59"]) == "09:59 left")
    }

    @Test func languageFollowsTheEnvironment() {
        #expect(Language.preferred(in: ["LANG": "de_DE.UTF-8"]) == .german)
        #expect(Language.preferred(in: ["LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"]) == .english)
        #expect(Language.preferred(in: ["LANG": "fr_FR.UTF-8"]) == .english)
        #expect(Language.preferred(in: [:]) == .english)
    }

    @Test func ambientCatalogEntriesResolveWithUniqueIDsAndBothLanguages() throws {
        let catalog = try AmbientCatalog(json: Data(PackageResources.ambient_catalog_json))
        #expect(catalog == AmbientCatalog.builtIn)
        #expect(catalog.entries.map(\.id) == ["silent", "rain", "ocean", "stream", "brown"])
        #expect(Set(catalog.entries.map(\.id)).count == catalog.entries.count)
        for entry in catalog.entries {
            #expect(catalog.sound(id: entry.id) == entry)
            #expect(entry.source == .generator(AmbientGenerator(rawValue: entry.id) ?? .silent))
            for language in Language.allCases {
                #expect(entry.name[language.rawValue]?.isEmpty == false)
                #expect(entry.description[language.rawValue]?.isEmpty == false)
            }
            #expect(!entry.icon.isEmpty)
            #expect((0...1).contains(entry.defaultVolume))
        }
    }

    @Test func ambientCatalogRejectsDuplicateIDs() {
        let json = """
            {"sounds":[{"id":"rain","name":{},"description":{},"icon":"x","defaultVolume":0.1,"source":{"generator":"rain"}},
            {"id":"rain","name":{},"description":{},"icon":"x","defaultVolume":0.1,"source":{"generator":"rain"}}]}
            """
        #expect(throws: AmbientCatalogError.duplicateID("rain")) { try AmbientCatalog(json: Data(json.utf8)) }
    }
}

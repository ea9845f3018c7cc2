import Foundation
import Testing

@testable import MomentumCore

/// The rules of a household's people (issue 26): names, who may be removed or change role, how
/// many may join, the one-time pairing codes and their links, and the PIN of a profile.
@Suite("Household rules: names, removal, roles, room, pairing codes, PINs")
struct HouseholdRulesTests {
    static let joined = Date(timeIntervalSince1970: 1_800_000_000)

    static func person(_ id: Person.ID, _ name: String, _ role: PersonRole = .member) -> Person {
        Person(id: id, name: name, role: role, createdAt: joined)
    }

    static let ada = person(Person.founderID, "Ada", .owner)
    static let ben = person(2, "Ben")
    static let cy = person(3, "Cy", .owner)

    // MARK: - Names

    @Test func aNameIsTrimmedAndKeptAsWritten() throws {
        #expect(try PersonName.validated("  Anna Lena ") == "Anna Lena")
        #expect(try PersonName.validated("Zoë") == "Zoë")
        #expect(try PersonName.validated("a-b") == "a-b")
    }

    @Test(arguments: ["", "   "])
    func anEmptyNameIsRefused(_ text: String) {
        #expect(throws: PersonError.nameEmpty) { try PersonName.validated(text) }
    }

    @Test func fortyCharactersAreTheLongestName() throws {
        let forty = String(repeating: "a", count: 40)
        #expect(try PersonName.validated(forty) == forty)
        #expect(throws: PersonError.nameTooLong(count: 41, maximum: 40)) {
            try PersonName.validated(forty + "a")
        }
        // Characters, not bytes: forty umlauts fit.
        let umlauts = String(repeating: "ü", count: 40)
        #expect(try PersonName.validated(umlauts) == umlauts)
    }

    @Test(
        arguments: [
            ("An\u{0}na", 0x0), ("An\nna", 0xA), ("Anna\t", 0x9), ("An\u{1B}[31mna", 0x1B), ("An\u{7F}na", 0x7F),
        ] as [(String, UInt32)])
    func controlCharactersAreRefused(_ text: String, _ code: UInt32) {
        #expect(throws: PersonError.nameControlCharacter(code: code)) { try PersonName.validated(text) }
    }

    /// The one text rule of the core (issue 46): a leading byte-order mark too, which trimming
    /// would not see.
    @Test(
        arguments: [
            ("\u{202E}anna", 0x202E), ("An\u{202A}na", 0x202A), ("An\u{2066}na", 0x2066), ("An\u{2069}na", 0x2069),
            ("\u{FEFF}Anna", 0xFEFF), ("Anna\u{200F}", 0x200F), ("An\u{200E}na", 0x200E), ("\u{061C}Anna", 0x061C),
        ] as [(String, UInt32)])
    func bidirectionalControlsAndByteOrderMarksAreRefused(_ text: String, _ code: UInt32) {
        #expect(throws: PersonError.nameBidirectionalControl(code: code)) { try PersonName.validated(text) }
    }

    /// `--user -x` would read as an option.
    @Test(arguments: ["-anna", " -anna", "--yes"])
    func aNameStartingWithADashIsRefused(_ text: String) {
        #expect(throws: PersonError.nameStartsWithDash) { try PersonName.validated(text) }
    }

    @Test func theFoundersNameIsTheLoginsWhenItMayNameAPerson() {
        #expect(PersonName.founder(login: "ada") == "ada")
        #expect(PersonName.founder(login: nil) == "owner")
        #expect(PersonName.founder(login: "root") == "owner")
        #expect(PersonName.founder(login: "-x") == "owner")
        #expect(PersonName.founder(login: "") == "owner")
    }

    // MARK: - Clashes

    @Test(arguments: ["ben", "BEN", " Ben ", "Ｂｅｎ"])
    func aNameTakenInAnyCaseOrWidthIsRefused(_ name: String) {
        #expect(throws: PersonError.nameTaken(name.trimmingCharacters(in: .whitespaces))) {
            try Household.checkedName(name, among: [Self.ada, Self.ben])
        }
    }

    @Test func aFreeNameIsCheckedAndTrimmed() throws {
        #expect(try Household.checkedName(" Cy ", among: [Self.ada, Self.ben]) == "Cy")
    }

    @Test func renamingToOnesOwnNameInAnotherCaseIsFine() throws {
        #expect(try Household.checkedName("BEN", among: [Self.ada, Self.ben], renaming: Self.ben.id) == "BEN")
        #expect(throws: PersonError.nameTaken("ada")) {
            try Household.checkedName("ada", among: [Self.ada, Self.ben], renaming: Self.ben.id)
        }
    }

    @Test func aPersonIsFoundByNameInAnyCaseOrNamedAsUnknown() throws {
        #expect(try Household.person(named: " BEN ", in: [Self.ada, Self.ben]) == Self.ben)
        #expect(throws: PersonError.unknownPerson("Dora")) {
            try Household.person(named: " Dora ", in: [Self.ada, Self.ben])
        }
    }

    // MARK: - Removal, roles, room

    @Test func theFounderStays() {
        let secondOwner = Self.person(4, "Dee", .owner)
        #expect(throws: PersonError.founderStays("Ada")) {
            try Household.checkRemoval(of: Self.ada, among: [Self.ada, secondOwner])
        }
    }

    @Test func aMemberMayBeRemoved() {
        #expect(throws: Never.self) { try Household.checkRemoval(of: Self.ben, among: [Self.ada, Self.ben]) }
    }

    @Test func theLastOwnerStays() {
        // A founder who is a member (made so while another owner was there), and that other owner.
        let memberFounder = Self.person(Person.founderID, "Ada", .member)
        #expect(throws: PersonError.lastOwner("Cy")) {
            try Household.checkRemoval(of: Self.cy, among: [memberFounder, Self.cy])
        }
        #expect(throws: Never.self) { try Household.checkRemoval(of: Self.cy, among: [Self.ada, Self.cy]) }
    }

    @Test func aHouseholdAlwaysKeepsAnOwner() {
        #expect(throws: PersonError.lastOwner("Ada")) {
            try Household.checkRoleChange(of: Self.ada, to: .member, among: [Self.ada, Self.ben])
        }
        #expect(throws: Never.self) {
            try Household.checkRoleChange(of: Self.ada, to: .member, among: [Self.ada, Self.ben, Self.cy])
        }
        #expect(throws: Never.self) {
            try Household.checkRoleChange(of: Self.ben, to: .owner, among: [Self.ada, Self.ben])
        }
        #expect(throws: Never.self) {
            try Household.checkRoleChange(of: Self.ada, to: .owner, among: [Self.ada])
        }
        #expect(throws: Never.self) {
            try Household.checkRoleChange(of: Self.ben, to: .member, among: [Self.ada, Self.ben])
        }
    }

    @Test func twentyPeopleFillAHousehold() {
        let nineteen = (1...19).map { Self.person(Int64($0), "P\($0)") }
        #expect(throws: Never.self) { try Household.checkRoom(among: nineteen) }
        let twenty = nineteen + [Self.person(20, "P20")]
        #expect(throws: PersonError.householdFull(maximum: 20)) { try Household.checkRoom(among: twenty) }
    }

    @Test func theFounderKeepsTheDataDirectoryAndOthersGetAFolder() {
        #expect(Self.ada.dataFolder == nil)
        #expect(Self.ben.dataFolder == "people/2")
    }

    // MARK: - Pairing codes

    @Test func aCodeIsTwelveCharactersOfTheAlphabet() {
        var random = SeededRandomNumberGenerator(seed: 26)
        var codes: Set<String> = []
        for _ in 0..<500 {
            let code = PairingCode.make(using: &random)
            #expect(code.count == 12)
            #expect(code.allSatisfy(PairingCode.alphabet.contains), "\(code)")
            codes.insert(code)
        }
        #expect(codes.count == 500)
        var again = SeededRandomNumberGenerator(seed: 26)
        var first = SeededRandomNumberGenerator(seed: 26)
        #expect(PairingCode.make(using: &again) == PairingCode.make(using: &first))
    }

    @Test func theAlphabetHasNoLookAlikes() {
        for letter in "01OILU" { #expect(!PairingCode.alphabet.contains(letter)) }
        #expect(PairingCode.alphabet.count == 30)
    }

    @Test(arguments: [
        "7KQMX3HDR9WE", "7kqm-x3hd-r9we", " 7kqm x3hd r9we ", "7-K-Q-M-X-3-H-D-R-9-W-E", "7KQM--X3HD  R9WE",
    ])
    func aTypedCodeIsReadForgivingly(_ text: String) throws {
        #expect(try PairingCode.normalized(text) == "7KQMX3HDR9WE")
    }

    @Test(arguments: [
        "", "7KQMX3HDR9W", "7KQMX3HDR9WEE", "7KQMX3HDR9WO", "7KQMX3HDR9WI", "7KQMX3HDR9W0", "7KQMX3HDR9W1",
        "7KQMX3HDR9W_", "7KQMX3HDR9WÄ", "7KQM.X3HD.R9WE", String(repeating: "-", count: 37),
    ])
    func aCodeOfTheWrongLengthOrLettersIsMalformed(_ text: String) {
        #expect(throws: PairingError.malformed) { try PairingCode.normalized(text) }
    }

    @Test func aCodeIsShownInGroupsOfFour() {
        #expect(PairingCode.grouped("7KQMX3HDR9WE") == "7KQM-X3HD-R9WE")
        #expect(PairingCode.grouped("ABCDE") == "ABCD-E")
        #expect(PairingCode.grouped("") == "")
    }

    @Test func aCodeIsUsableForJustUnderTenMinutesOnce() {
        let made = Self.joined
        #expect(PairingCode.isUsable(createdAt: made, usedAt: nil, at: made))
        #expect(PairingCode.isUsable(createdAt: made, usedAt: nil, at: made.addingTimeInterval(599.999)))
        #expect(!PairingCode.isUsable(createdAt: made, usedAt: nil, at: made.addingTimeInterval(600)))
        #expect(!PairingCode.isUsable(createdAt: made, usedAt: nil, at: made.addingTimeInterval(-1)))
        #expect(
            !PairingCode.isUsable(createdAt: made, usedAt: made.addingTimeInterval(5), at: made.addingTimeInterval(6)))
    }

    @Test(arguments: [
        ("http://192.168.1.20:8080", "http://192.168.1.20:8080/pair.html#7KQM-X3HD-R9WE"),
        ("http://192.168.1.20:8080/", "http://192.168.1.20:8080/pair.html#7KQM-X3HD-R9WE"),
        ("https://momentum.home.example", "https://momentum.home.example/pair.html#7KQM-X3HD-R9WE"),
        ("HTTPS://momentum.home.example:8443", "HTTPS://momentum.home.example:8443/pair.html#7KQM-X3HD-R9WE"),
        ("http://[fd00::20]:8080", "http://[fd00::20]:8080/pair.html#7KQM-X3HD-R9WE"),
    ])
    func theLinkCarriesTheCodeInItsFragment(_ base: String, _ link: String) throws {
        #expect(try PairingCode.link(base: base, code: "7KQMX3HDR9WE") == link)
        #expect(try PairingCode.link(base: base, code: "7KQM-X3HD-R9WE") == link)
    }

    @Test(arguments: [
        "http://192.168.1.20:8080/momentum", "http://host:8080/?next=1", "http://ann:secret@host:8080",
        "http://ann@host:8080", "ftp://host", "javascript:alert(1)", "file:///etc/passwd", "host:8080",
        "192.168.1.20:8080", "http://", "http://host\n:8080", "http://host:8080#x", "http://ho\u{202E}st:8080",
        "", "http://" + String(repeating: "a", count: 300),
    ])
    func anAddressWithAPathQueryCredentialsOrAnotherSchemeIsRefused(_ base: String) {
        #expect(throws: PairingError.badAddress(base)) { try PairingCode.link(base: base, code: "7KQMX3HDR9WE") }
    }

    // MARK: - PINs

    @Test(arguments: ["1234", "00000000", "2580"])
    func aPINIsFourToEightDigits(_ pin: String) throws {
        #expect(try PersonPIN.validated(pin) == pin)
    }

    @Test(arguments: ["123", "123456789", "12a4", " 1234", "1234 ", "١٢٣٤", "１２３４", "", "12-34"])
    func anythingElseIsNotAPIN(_ pin: String) {
        #expect(throws: PersonError.pinFormat(minimum: 4, maximum: 8)) { try PersonPIN.validated(pin) }
    }
}

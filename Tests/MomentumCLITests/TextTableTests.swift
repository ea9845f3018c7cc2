import Testing

@testable import MomentumCLI

@Suite("Tables in the terminal line up, whatever the script")
struct TextTableTests {
    @Test func wideCharactersTakeTwoColumns() {
        #expect("Body Scan".terminalWidth == 9)
        #expect("瞑想".terminalWidth == 4)
        #expect("めいそう".terminalWidth == 8)
        #expect("명상".terminalWidth == 4)
        #expect("Ａ1".terminalWidth == 3)
        #expect("🧘 Sit".terminalWidth == 6)
        #expect("Jürgen Weiß".terminalWidth == 11)
        #expect("e\u{301}".terminalWidth == 1)
    }

    @Test func columnsAfterAWideCellStartInTheSameColumn() {
        let text = TextTable.render([["瞑想の時間", "12:00", "x"], ["Body Scan", "3:30", "y"]])
        let lines = text.split(separator: "\n").map(String.init)
        let columns = lines.map { line in
            String(line[..<line.firstIndex(where: { $0.isNumber })!]).terminalWidth
        }
        #expect(columns[0] == columns[1])
        #expect(lines[0] == "瞑想の時間  12:00  x")
        #expect(lines[1] == "Body Scan   3:30   y")
    }
}

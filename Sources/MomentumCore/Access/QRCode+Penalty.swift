// The penalty score that picks a data mask (ISO/IEC 18004, 7.8.3): lower is easier to read.

extension QRCode.ModuleGrid {
    /// The sum of the four penalty rules over every row and column of the finished symbol.
    ///
    /// The standard leaves details open, and encoders read it differently. This one scores as
    /// Nayuki's reference encoder (qrcodegen) does, and so picks the same masks: the finished
    /// symbol with its format and version information for the candidate mask, the quiet zone
    /// counted as light, finder-like patterns at any scale, and a dark share of exactly 45 or
    /// 55 % still unpunished.
    func penalty() -> Int {
        let rows = (0..<size).map { y in (0..<size).map { x in self[x, y] } }
        let columns = (0..<size).map { x in (0..<size).map { y in self[x, y] } }
        let lines = rows + columns
        return lines.map(Self.runPenalty).reduce(0, +) + blockPenalty()
            + lines.map(Self.finderLikePenalty).reduce(0, +) + balancePenalty()
    }

    /// Rule 1: 3 points for five modules of one colour in a row, one more for each further one.
    static func runPenalty(_ line: [Bool]) -> Int {
        var penalty = 0
        var runLength = 0
        for (index, module) in line.enumerated() {
            runLength = index > 0 && line[index - 1] == module ? runLength + 1 : 1
            if runLength == 5 {
                penalty += 3
            } else if runLength > 5 {
                penalty += 1
            }
        }
        return penalty
    }

    /// Rule 2: 3 points for every 2×2 square of one colour (overlapping squares count each).
    func blockPenalty() -> Int {
        var penalty = 0
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = self[x, y]
                if self[x + 1, y] == colour && self[x, y + 1] == colour && self[x + 1, y + 1] == colour {
                    penalty += 3
                }
            }
        }
        return penalty
    }

    /// Rule 3: 40 points for each dark-light-dark-light-dark stretch in a finder's proportions
    /// 1:1:3:1:1 (at any scale), once for a light stretch four units wide before it and one unit
    /// after it, and once more for the same the other way round; beyond the edge is light.
    static func finderLikePenalty(_ line: [Bool]) -> Int {
        let runs = runLengths(line)
        var penalty = 0
        for start in stride(from: 1, to: runs.count - 5, by: 2) {  // dark runs sit at odd indices
            let unit = runs[start]
            guard runs[(start + 1)...(start + 4)].elementsEqual([unit, 3 * unit, unit, unit]) else { continue }
            let before = runs[start - 1]
            let after = runs[start + 5]
            if before >= 4 * unit && after >= unit { penalty += 40 }
            if after >= 4 * unit && before >= unit { penalty += 40 }
        }
        return penalty
    }

    /// The lengths of alternating light and dark runs, light first and last; the light runs at
    /// both ends include a quiet zone as wide as the line, more than any pattern in it needs.
    static func runLengths(_ line: [Bool]) -> [Int] {
        var runs = [line.count]
        var runIsDark = false
        for module in line {
            if module == runIsDark {
                runs[runs.count - 1] += 1
            } else {
                runs.append(1)
                runIsDark = module
            }
        }
        if runIsDark { runs.append(0) }
        runs[runs.count - 1] += line.count
        return runs
    }

    /// Rule 4: 10 points for each step k of the smallest k for which the share of dark modules
    /// lies within 45 − 5k % and 55 + 5k %.
    func balancePenalty() -> Int {
        let darkCount = dark.filter { $0 }.count
        let total = size * size
        let deviation = abs(darkCount * 20 - total * 10)  // in units of 5 % of the total
        return max((deviation + total - 1) / total - 1, 0) * 10
    }
}

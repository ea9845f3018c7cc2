import MomentumCore

/// What fits where the cursor is: words to offer, or the shell's own file names.
enum CompletionAnswer: Sendable, Equatable {
    case words([String])
    case files
    case directories
}

/// The names only the data directory knows, asked for when they are the value that fits.
enum CompletionNames: Sendable, Equatable {
    case timers, savedSits, breathingPresets, workoutPrograms, people
}

/// Tab completion from the program's own knowledge (issue 38): the shells' scripts hand over the
/// words typed so far and print what this answers (``CompletionScripts``). Options of a default
/// subcommand complete on its group (`meditate --am` → `--ambient`), option values come from the
/// core's lists, file names where a file goes, and names of timers, saved sits, presets,
/// programs and people from the data directory.
struct CompletionEngine {
    var root: CompletionNode = .momentum
    /// The names of a kind, for the data directory and person the typed words choose (`--data`,
    /// `--user`); empty when there is none.
    var names: (CompletionNames, _ typed: [String]) async -> [String]

    /// `words` are the words after `momentum`; the last is the one being completed (empty for a
    /// new word).
    func complete(_ words: [String]) async -> CompletionAnswer {
        let current = words.last ?? ""
        let typed = Array(words.dropLast())
        var node = root
        var path: [String] = []
        var positionals = 0
        var used = Set<String>()
        var pending: CompletionOption?
        var afterTerminator = false
        for word in typed {
            if pending != nil {
                pending = nil
                continue
            }
            if word == "--", !afterTerminator {
                afterTerminator = true
                continue
            }
            if !afterTerminator, word.hasPrefix("-"), word.count > 1, !isNumber(word) {
                let spelling = String(word.split(separator: "=", maxSplits: 1)[0])
                if let option = options(of: node, positionals: positionals).first(where: {
                    $0.spellings.contains(spelling)
                }) {
                    used.insert(option.key)
                    if option.takesValue, !word.contains("=") { pending = option }
                }
                continue
            }
            if positionals == 0, let child = node.subcommand(named: word) {
                node = child
                path.append(child.name)
                continue
            }
            if positionals == 0, node.positionals.isEmpty, let child = node.defaultNode {
                node = child
                path.append(child.name)
            }
            positionals += 1
        }
        if let pending { return await values(for: pending, path: path, typed: typed, current: current) }
        if current.hasPrefix("-"), !afterTerminator, !isNumber(current) {
            let offered =
                options(of: node, positionals: positionals)
                .filter { $0.isShown && ($0.isRepeating || !used.contains($0.key)) }
                .flatMap { $0.spellings.filter { $0.hasPrefix("--") } } + ["--help"]
            return .words(unique(offered.filter { $0.hasPrefix(current) }))
        }
        var offered: [String] = []
        var target = node
        if positionals == 0 {
            offered += node.subcommands.filter(\.isShown).map(\.name)
            if node.positionals.isEmpty, let child = node.defaultNode {
                target = child
                path.append(child.name)
            }
        }
        if let positional = positional(of: target, at: positionals) {
            if positional.wantsFile || Self.fileArguments.contains(positional.valueName) { return .files }
            if let fixed = positional.fixedValues {
                offered += fixed
            } else {
                offered += await positionalValues(positional.valueName, path: path, typed: typed)
            }
        }
        return .words(unique(offered.filter { $0.hasPrefix(current) }))
    }

    /// The node's options, and its default subcommand's while no positional chose otherwise.
    private func options(of node: CompletionNode, positionals: Int) -> [CompletionOption] {
        guard positionals == 0, node.positionals.isEmpty, let child = node.defaultNode else { return node.options }
        return node.options + child.options
    }

    private func positional(of node: CompletionNode, at index: Int) -> CompletionPositional? {
        if index < node.positionals.count { return node.positionals[index] }
        return node.positionals.last.flatMap { $0.isRepeating ? $0 : nil }
    }

    private func values(for option: CompletionOption, path: [String], typed: [String], current: String) async
        -> CompletionAnswer
    {
        if option.wantsDirectory || option.key == "data" { return .directories }
        if option.wantsFile || Self.fileOptions.contains(option.key) { return .files }
        let values: [String]
        if let fixed = option.fixedValues {
            values = fixed
        } else {
            switch option.key {
            case "ambient": values = AmbientCatalog.builtIn.entries.map(\.id)
            case "kind": values = PracticeKind.allCases.map(\.rawValue)
            case "category": values = PracticeCategory.allCases.map(\.rawValue)
            case "lang": values = Language.allCases.map(\.rawValue)
            case "user", "with": values = await names(.people, typed)
            default: values = []
            }
        }
        return .words(unique(values.filter { $0.hasPrefix(current) }))
    }

    /// A positional argument's values, by its value name and command.
    private func positionalValues(_ valueName: String, path: [String], typed: [String]) async -> [String] {
        // A name given to something new (`timer add NAME`) has nothing to complete.
        guard path.last != "add" else { return [] }
        switch (path.first, valueName) {
        case ("settings", "key"): return SettingKey.allCases.map(\.rawValue)
        case ("user", "name"): return await names(.people, typed)
        case ("timer", "name"), ("render", "name"): return await names(.timers, typed)
        case ("meditate", "saved-sit"): return await names(.savedSits, typed)
        // `meditate NAME` starts a saved sit where the minutes go.
        case ("meditate", "minutes") where path == ["meditate", "sit"]: return await names(.savedSits, typed)
        case (_, "preset"): return await names(.breathingPresets, typed)
        case (_, "program"): return await names(.workoutPrograms, typed)
        default: return []
        }
    }

    /// Options and positionals whose value is a file of the person's (`-o`, `import FILE`).
    static let fileOptions: Set<String> = ["output", "file"]
    static let fileArguments: Set<String> = ["file"]

    private func isNumber(_ word: String) -> Bool { Double(word) != nil }

    private func unique(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }
}

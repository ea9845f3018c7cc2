import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long output in a terminal goes through the person's pager, as git and man do: `$PAGER`, or
/// `less -FRX` when it is not set (quits at once when the text fits, keeps colours, leaves the
/// text on the screen). `PAGER=` or `PAGER=cat` turns paging off.
enum Pager {
    /// The shell command to page with, or `nil` to write straight out.
    static func command(environment: [String: String]) -> String? {
        if let chosen = environment["PAGER"] {
            let trimmed = chosen.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let hasLess = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/less")
        }
        return hasLess ? "less -FRX" : nil
    }

    /// Shows `text` through `command` (run by `/bin/sh`, on this process's terminal) and waits
    /// until the person leaves it. Ctrl-C belongs to the pager meanwhile, and a pager quit before
    /// the end is not an error. `false` when the pager could not be started.
    static func show(_ text: String, command: String, environment: [String: String]) -> Bool {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var pagerEnvironment = environment
        if pagerEnvironment["LESS"] == nil { pagerEnvironment["LESS"] = "FRX" }
        process.environment = pagerEnvironment
        process.standardInput = pipe
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGPIPE, previousPipe)
        }
        do {
            try process.run()
        } catch {
            return false
        }
        // try?: a pager quit early closes its end: the rest is not wanted, not a failure.
        try? pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        // try?: closing only tells the pager the text is over; a pager gone needs no telling.
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return true
    }
}

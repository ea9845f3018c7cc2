import Foundation
import MomentumStoreContract

/// Where Momentum keeps its database and library files.
///
/// `--data DIR` wins, then `$MOMENTUM_HOME`, then `$XDG_DATA_HOME/momentum`, then
/// `~/.local/share/momentum`. An empty `--data ""` is refused: it is a mistake (an unset shell
/// variable, say), and quietly using the default directory would write somewhere unexpected.
public enum DataDirectory {
    public static func resolve(
        explicit: String?, environment: [String: String], homeDirectory: String
    ) throws(DataDirectoryError) -> URL {
        if let explicit {
            guard !explicit.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyPath }
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let home = environment["MOMENTUM_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("momentum", isDirectory: true)
        }
        return URL(fileURLWithPath: homeDirectory, isDirectory: true)
            .appendingPathComponent(".local/share/momentum", isDirectory: true)
    }
}

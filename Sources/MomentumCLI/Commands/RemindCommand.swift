import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum remind …`: the reminders planned for the coming days, and their settings.
struct RemindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Reminders that help without nagging: the plan for the coming days, and their settings.",
        subcommands: [Settings.self]
    )
}

import Foundation
import MomentumCLI

let status = await MomentumCLI.main(arguments: Array(CommandLine.arguments.dropFirst()), context: .live())
exit(status)

import Foundation
import PackagePlugin

/// Builds the browser UI (`Sources/MomentumServer/Public`) into the server: every file becomes an
/// entry of `EmbeddedWebApp.files`, so a `momentum` binary copied anywhere serves its web app
/// (issue 40). Rebuilt whenever a file of the folder changes.
@main
struct EmbedWebApp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = URL(fileURLWithPath: target.directory.string).appending(path: "Public")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedWebApp.swift")
        var inputs: [URL] = []
        if let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walk
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                inputs.append(url)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the web app (\(inputs.count) files)",
                executable: try context.tool(named: "EmbedWebAppTool").url,
                arguments: [folder.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}

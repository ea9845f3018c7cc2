import Dispatch

/// Runs the CPU-heavy steps of one render on a thread of Dispatch's, never on the event loops or
/// the cooperative pool that answer every other request, and awaits each step.
///
/// ```swift
/// let worker = RenderWorker()
/// while let chunk = try await worker.run({ try job.nextChunk() }) { try await writer.write(chunk) }
/// ```
///
/// A serial queue of its own per render: it targets Dispatch's overcommitting pool, so a render
/// always gets a thread, and how many run at once is decided by ``RenderSlots``.
struct RenderWorker: Sendable {
    private let queue = DispatchQueue(label: "momentum.render", qos: .utility)

    /// The result of `step`, run on the render's thread.
    func run<Value: Sendable>(_ step: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try step() }) }
        }
    }
}

import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `POST /api/v1/{meditation,breathing,workouts}/timeline`: a plan in, the timeline the core
/// compiles out — the same JSON `momentum meditate --plan` prints. Nothing is stored.
struct TimelineController {
    let breathing: BreathingService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.post("meditation/timeline", use: meditation)
        group.post("breathing/timeline", use: breathingTimeline)
        group.post("workouts/timeline", use: workout)
    }

    @Sendable func meditation(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timeline> {
        let plan = try await RequestBody.decode(MeditationPlan.self, from: request, orEmpty: MeditationPlan())
        return JSONResponse(try plan.timeline())
    }

    @Sendable func breathingTimeline(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<Timeline>
    {
        let body = try await RequestBody.decode(BreathingPlanBody.self, from: request)
        return await JSONResponse(try body.plan(breathing: breathing).timeline())
    }

    @Sendable func workout(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timeline> {
        let body = try await RequestBody.decode(WorkoutPlanBody.self, from: request)
        return JSONResponse(try body.plan().timeline())
    }
}

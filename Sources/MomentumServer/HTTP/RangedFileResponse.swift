import Foundation
import Hummingbird

extension FileIO {
    /// A file streamed as the request's `Range` header asks: `200` with the whole file, `206` with
    /// one range and its `Content-Range`, or `416` with `Content-Range: bytes */size`. Every answer
    /// says `Accept-Ranges: bytes`, so players know they may seek. A file that cannot be read is
    /// a logged 500, never an empty answer a browser would keep.
    func rangedResponse(
        path: String, contentType: String, request: Request, context: some RequestContext,
        headers extra: HTTPFields = [:]
    ) async throws -> Response {
        let size: Int
        do {
            size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        } catch {
            context.logger.error("a file to send cannot be read", metadata: ["path": "\(path)", "error": "\(error)"])
            throw APIError.serverFault
        }
        let asked = ByteRangeRequest(header: request.headers[.range], size: size)
        var headers = extra
        headers[.acceptRanges] = "bytes"
        if let contentRange = asked.contentRange(size: size) { headers[.contentRange] = contentRange }
        switch asked {
        case .unsatisfiable:
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .whole:
            headers[.contentType] = contentType
            headers[.contentLength] = "\(size)"
            let body = size == 0 ? ResponseBody() : try await loadFile(path: path, context: context)
            return Response(status: .ok, headers: headers, body: body)
        case .partial(let range):
            headers[.contentType] = contentType
            headers[.contentLength] = "\(range.count)"
            let body = try await loadFile(path: path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
    }
}

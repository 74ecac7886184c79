import PeerLinkCore
import FitnessDomain

extension PhoneApp {
    /// `export csv` (データをエクスポート): the past 30 days as CSV, handed to the node as an
    /// `AppEffect.export` (the share sheet's stand-in); the reply comes from its outcome
    /// (`exportFinished`).
    mutating func exportCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 2, w[1] == "csv" else { return .error(L10n.usage("export csv")(ctx.language)) }
        let name = FitnessCSVExport.fileName(nowMs: ctx.now, calendar: ctx.calendar)
        let bytes = FitnessCSVExport.makeBytes(
            samples: samples(ctx), nowMs: ctx.now, calendar: ctx.calendar, authorization: state.auth.authorization, statistics: statistics)
        ctx.perform(.export(name: name, bytes: bytes))
        return .ok(text: "\(FitnessCSVExport.buttonLabel(ctx.language)): \(name)")
    }

    /// The node wrote the export (or could not): the export is recorded (query `export last
    /// …`) and the command's reply says where it went, with `path`, `name`, `rows` and `bytes`.
    mutating func exportFinished(name: String, bytes: Int, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply {
        switch outcome {
        case .failure(let e) where e.noExportFolder:
            return .error(L10n.phoneNoExportFolder(ctx.language))
        case .failure(let e):
            ctx.log(.error, "export failed: \(e)")
            return .error(L10n.phoneExportFailed(e.description)(ctx.language))
        case .success(let path):
            let record = ExportRecord(name: name, path: path, rows: FitnessCSVExport.dayCount, bytes: bytes, atMs: ctx.now)
            state.exports.append(record)
            if state.exports.count > ExportRecord.maxKept { state.exports.removeFirst(state.exports.count - ExportRecord.maxKept) }
            save(&ctx)
            return .ok(Self.exportValue(record), text: "\(FitnessCSVExport.buttonLabel(ctx.language)): \(path)")
        }
    }

    /// An export as data.
    static func exportValue(_ r: ExportRecord) -> PlistValue {
        ["path": .string(r.path), "name": .string(r.name), "rows": .int(Int64(r.rows)), "bytes": .int(Int64(r.bytes)), "at": .int(r.atMs)]
    }
}

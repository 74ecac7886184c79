/// The engine's side of app effects (`AppEffect`): it performs what the app asked for on the
/// node's files and export folder, in the order asked, and reports each outcome to the app.
extension NodeEngine {
    /// Performs the effects the app asked for so far (and those its outcome handlers ask
    /// for). Called after every step of an event, nearly always with none asked: that case
    /// returns at once, with no optional reply to make and destroy (which went through the
    /// run time's generic witnesses, several times per received frame).
    @inline(__always)
    func performAppEffects() {
        if !ctx.effects.isEmpty { _ = performAppEffectsForReply() }
    }

    /// `performAppEffects`, returning the last reply an outcome handler gave (see
    /// `NodeApp.onEffectOutcome`).
    func performAppEffectsForReply() -> CommandReply? {
        var reply: CommandReply?
        while !ctx.effects.isEmpty {
            let effects = ctx.effects
            ctx.effects = []
            for effect in effects {
                let outcome = perform(effect)
                if let r = app.onEffectOutcome(effect, outcome, &ctx) { reply = r }
            }
        }
        return reply
    }

    func perform(_ effect: AppEffect) -> Result<String, AppEffectError> {
        switch effect {
        case .writeFile(let path, let bytes):
            do {
                try files.replaceAll(path, with: bytes)
                return .success(path)
            } catch {
                return .failure(AppEffectError("could not write \(path): \(error)"))
            }
        case .removeFile(let path):
            files.remove(path)
            return .success(path)
        case .export(let name, let bytes):
            guard let exports else { return .failure(AppEffectError("this node has no export folder", noExportFolder: true)) }
            return exports.write(name: name, bytes: bytes)
        }
    }

    /// A received file with its content, when the app reads files of its size.
    func withContents(_ f: ReceivedFile) -> ReceivedFile {
        guard f.sizeBytes <= App.receivedFileReadLimit, f.contents == nil else { return f }
        var f = f
        do { f.contents = try files.readAll(f.path) } catch { ctx.log(.error, "received file \(f.name) not readable: \(error)") }
        return f
    }
}

extension NodeContext {
    /// Logs that `effect` failed (what `onEffectOutcome` does by default).
    public mutating func logFailure(of effect: AppEffect, _ error: AppEffectError) {
        log(.error, "\(effect.summary) failed: \(error)")
    }
}

extension AppEffect {
    /// What the effect does, for log lines.
    public var summary: String {
        switch self {
        case .writeFile(let path, let bytes): "writing \(path) (\(bytes.count) B)"
        case .removeFile(let path): "removing \(path)"
        case .export(let name, let bytes): "exporting \(name) (\(bytes.count) B)"
        }
    }
}

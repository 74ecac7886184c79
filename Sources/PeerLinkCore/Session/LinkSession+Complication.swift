
/// `transferCurrentComplicationUserInfo` (phone → watch): jumps ahead of queued user info,
/// wakes the watch app, only the newest queued one is tagged current, and a budget of
/// `complicationTransfersPerDay` per local calendar day. The day comes from the shell
/// (`localDay`: the device's calendar date now), so the core reads no clock or time zone.
extension LinkSession {
    /// `remainingComplicationUserInfoTransfers` on `localDay`: 0 when the complication is not
    /// enabled (or on the watch).
    public func remainingComplicationUserInfoTransfers(localDay: CivilDate) -> Int {
        guard config.role == .phone, isComplicationEnabled else { return 0 }
        let used = persistent.userInfo.complicationBudgetDay == localDay.daysSinceEpoch ? persistent.userInfo.complicationTransfersUsed : 0
        return max(0, config.complicationTransfersPerDay - used)
    }

    /// `transferCurrentComplicationUserInfo`. Fails at once when the complication is not
    /// enabled (`invalidParameter`) or on the watch (`sessionNotSupported`); with no budget left
    /// today it is queued as ordinary user info (not tagged, not ahead of the queue).
    public mutating func transferCurrentComplicationUserInfo(_ userInfo: PlistValue, localDay: CivilDate,
                                                             now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        guard config.role == .phone else {
            return .failure(WCError(.sessionNotSupported, "complication user info goes from the phone to the watch"))
        }
        if let e = readinessError() { return .failure(e) }
        guard isComplicationEnabled else {
            return .failure(WCError(.invalidParameter, "the watch's complication is not on the active face"))
        }
        if case .failure(let e) = validateUserInfo(userInfo) { return .failure(e) }
        guard remainingComplicationUserInfoTransfers(localDay: localDay) > 0 else {
            emitLog(.info, "complication budget for \(localDay) used up: sent as ordinary user info")
            return enqueueUserInfo(userInfo, stream: .ordinary, now: now)
        }
        if persistent.userInfo.complicationBudgetDay != localDay.daysSinceEpoch {
            persistent.userInfo.complicationBudgetDay = localDay.daysSinceEpoch
            persistent.userInfo.complicationTransfersUsed = 0
        }
        persistent.userInfo.complicationTransfersUsed += 1
        metaDirty = true
        return enqueueUserInfo(userInfo, stream: .complication, now: now)
    }
}

import PeerLinkCore

/// The user's profile: the birth date age goals count from (the seed's SwiftData `UserProfile`).
///
/// One record, id `"profile"`. A birth date is never after the day it was entered
/// (`CountdownRules.validateBirthDate` refuses it before it is stored).
public struct UserProfile: Sendable, Hashable {
    /// The birth date; nil until the user enters one.
    public var birthDate: CivilDate?
    /// When the profile was first created (the seed's `createdDate`).
    public var createdMs: EpochMs

    /// Makes a profile.
    public init(birthDate: CivilDate?, createdMs: EpochMs) {
        self.birthDate = birthDate
        self.createdMs = createdMs
    }
}

// MARK: - Replicated record

extension UserProfile: ReplicatedRecord {
    /// The collection name in the replicated state.
    public static let collection = "profile"
    /// The one record id.
    public static let recordID = "profile"
    /// Always `recordID`.
    public var id: String { Self.recordID }

    /// Field value that means "no birth date" (always written, so clearing it replicates).
    public static let noBirthDate = ""

    /// The fields: `birthDate` ("YYYY-MM-DD" or "") and `created` (ms).
    public var fields: [String: PlistValue] {
        ["birthDate": .string(birthDate?.description ?? Self.noBirthDate), "created": .int(createdMs)]
    }

    /// Rebuilds the profile; nil for another id, a mistyped field, or a birth date that is not
    /// a real "YYYY-MM-DD" day. Missing fields read as no birth date and created 0.
    public init?(id: String, fields f: [String: PlistValue]) {
        guard id == Self.recordID else { return nil }
        var birthDate: CivilDate?
        switch f["birthDate"] {
        case nil: birthDate = nil
        case .string(let s) where s == Self.noBirthDate: birthDate = nil
        case .string(let s):
            guard let day = CivilDate(iso: s) else { return nil }
            birthDate = day
        default: return nil
        }
        var createdMs: EpochMs = 0
        if let created = f["created"] {
            guard let ms = created.intValue else { return nil }
            createdMs = ms
        }
        self.init(birthDate: birthDate, createdMs: createdMs)
    }
}

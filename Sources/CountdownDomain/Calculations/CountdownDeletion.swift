import PeerLinkCore

/// Deleting a goal only after the user confirms it (seed 4.2), as a small state machine.
///
/// `onRequestDeletion` opens the confirmation dialog (a `PendingDeletion`); `onConfirm`
/// deletes that goal; `onCancel` closes the dialog and changes nothing. At most one
/// deletion is pending: a new request replaces the dialog.
public struct CountdownDeletionFlow: Sendable, Hashable {
    /// The deletion waiting for the user's answer, if the dialog is open.
    public private(set) var pending: PendingDeletion?

    /// A flow with no dialog open.
    public init() {
        pending = nil
    }

    // MARK: - Events

    /// The user asked to delete `goal`: show the confirmation dialog.
    public mutating func onRequestDeletion(of goal: CountdownGoal) -> CountdownDeletionDirective {
        let request = PendingDeletion(goalID: goal.id, title: goal.title)
        pending = request
        return .askConfirmation(request)
    }

    /// The user confirmed: delete the pending goal. Nothing happens with no dialog open.
    public mutating func onConfirm() -> CountdownDeletionDirective {
        guard let request = pending else { return .none }
        pending = nil
        return .deleteGoal(id: request.goalID)
    }

    /// The user cancelled: close the dialog; the goal stays.
    public mutating func onCancel() -> CountdownDeletionDirective {
        guard pending != nil else { return .none }
        pending = nil
        return .dismissConfirmation
    }

    /// Goals changed (e.g. a sync deleted the pending goal on the other device): close the
    /// dialog if its goal is gone.
    public mutating func onGoalsChanged(_ goals: [CountdownGoal]) -> CountdownDeletionDirective {
        guard let request = pending, !goals.contains(where: { $0.id == request.goalID }) else { return .none }
        pending = nil
        return .dismissConfirmation
    }
}

/// The confirmation dialog's contents: which goal, and the texts to show.
public struct PendingDeletion: Sendable, Hashable {
    /// The goal to delete.
    public var goalID: String
    /// Its title when the dialog opened.
    public var title: String

    /// Makes a pending deletion.
    public init(goalID: String, title: String) {
        self.goalID = goalID
        self.title = title
    }

    /// The question: "「title」を削除しますか？" / "Delete “title”?".
    public func question(_ language: AppLanguage = .default) -> String {
        L10n.countdownDeleteConfirmation(title: title)(language)
    }

    /// The destructive button's label.
    public func confirmLabel(_ language: AppLanguage = .default) -> String { L10n.countdownDeleteButton(language) }

    /// The cancel button's label.
    public func cancelLabel(_ language: AppLanguage = .default) -> String { L10n.countdownCancelButton(language) }
}

/// What the shell does after a deletion event.
public enum CountdownDeletionDirective: Sendable, Hashable {
    /// Nothing to do.
    case none
    /// Show the confirmation dialog.
    case askConfirmation(PendingDeletion)
    /// Close the dialog without deleting.
    case dismissConfirmation
    /// Delete the goal (a tombstone in the replicated state) and close the dialog.
    case deleteGoal(id: String)
}

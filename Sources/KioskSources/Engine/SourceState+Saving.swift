import KioskModel

extension SourceState {
    /// Whether this state differs from `previous` in what a store keeps: entries, validators and
    /// the failure bookkeeping. `lastSuccess` alone is no reason to write (see its comment).
    func needsSaving(comparedTo previous: Self?) -> Bool {
        guard let previous else { return true }
        return entries != previous.entries || validators != previous.validators || failures != previous.failures
            || lastError != previous.lastError || lastFailure != previous.lastFailure
    }
}

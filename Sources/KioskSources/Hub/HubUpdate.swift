/// What a hub subscriber receives: the next event, or, after it fell behind and events were
/// dropped for it, the whole current state to redraw from.
public enum HubUpdate: Sendable, Hashable {
    case event(EngineEvent)
    case resync(HubSnapshot)
}

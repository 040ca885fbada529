/// The sync APIs of native readers, mounted by the web app under `/api`.
public enum SyncAPI {}

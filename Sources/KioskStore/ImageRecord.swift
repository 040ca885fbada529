import KioskSources

/// The image cache's index card for one image: where its bytes are on disk and what they are.
/// It is exactly what the disk cache reports (``ImageFileRecord``), so the two cannot drift.
public typealias ImageRecord = ImageFileRecord

import KioskSources
import KioskStore
import Logging

/// Keeps the store's image index in step with the image pipeline's disk cache.
struct StoreImageIndex: ImageCacheIndex {
    let store: any KioskStore
    let logger: Logger

    func imagesChanged(stored: [ImageFileRecord], removedFiles: [String]) async {
        do {
            try await store.removeImageRecords(files: removedFiles)
            for record in stored { try await store.recordImage(record) }
        } catch {
            logger.warning("cannot update the image index", metadata: ["error": "\(error)"])
        }
    }
}

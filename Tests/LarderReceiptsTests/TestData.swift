import Foundation
import LarderTestSupport

/// The receipt folders the tests read, found by LarderTestSupport (`../shared/data` beside the repository, or
/// `$LARDER_SHARED_DATA`). Tests that need a shared folder are disabled, with the reason, when it is absent.
enum TestData {
    /// The SROIE grocery subset (`shared/data/receipts-sroie`).
    static let sroieFolder: String? = SharedData.path("receipts-sroie")
    /// CORD line-item labels (`shared/data/receipts-cord/json`).
    static let cordFolder: String? = SharedData.path("receipts-cord/json")
    /// Real phone photos of receipts with labels (`shared/data/receipts-photos`).
    static let photosFolder: String? = SharedData.path("receipts-photos")
    /// German till receipts (`shared/data/receipts-de`).
    static let germanFolder: String? = SharedData.path("receipts-de")
    /// The project's samples (`samples/`, holding `receipts/`).
    static let samplesFolder: String = Repository.path("samples")
}

import Foundation
import Testing
@testable import LarderPages
@testable import LarderRecipes

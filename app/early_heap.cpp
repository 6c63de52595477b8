// Start-up: the heap's first megabytes on transparent huge pages.
//
// Before main, SystemC's static initialization (inside libsystemc, which
// kairo links as Debian ships it) allocates a 3 MiB pool and clears it: at
// 4 KiB a page that is 768 page faults, half of an empty run's 1,500 and
// about a third of its time. A function in the executable's .preinit_array
// runs before any shared library's initializers, so it can prepare the heap
// that allocation will come from:
//  1. a block of twice kEarlyBytes is allocated and freed. glibc serves it by mmap
//     and, freeing it, raises its mmap threshold to that size (mallopt(3),
//     M_MMAP_THRESHOLD: the threshold is dynamic and follows the largest
//     block freed), as a run reaches anyway once it frees its first large
//     vector. Blocks below it now come from the heap.
//  2. a block of that size and one huge page more is allocated from the
//     heap, its whole 2 MiB pages are advised MADV_HUGEPAGE, and it is freed;
//     the free memory stays at the heap's top (below the trim threshold,
//     twice the mmap threshold). A block up to the first huge page is then
//     taken and kept, so that what is allocated next starts on it.
// SystemC's pool and kairo's own first allocations are then served from
// huge pages: a few faults instead of hundreds. Nothing else changes: where a
// kernel has huge pages off, or refuses the advice, the pages stay as they
// were. Sanitizer builds keep their allocator as it is.
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

namespace {

constexpr std::size_t kEarlyBytes = std::size_t{8} << 20;
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

void early_heap_on_huge_pages() {
  void* volatile mapped = std::malloc(2 * kEarlyBytes);  // volatile: the pair is not elided
  std::free(mapped);
  char* const heap = static_cast<char*>(std::malloc(kEarlyBytes + kHugePage));
  if (!heap) return;
  const auto at = reinterpret_cast<std::uintptr_t>(heap);
  const std::uintptr_t from = (at + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t to = (at + kEarlyBytes + kHugePage) & ~(kHugePage - 1);
  ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
  std::free(heap);
  // What lies below the first huge page stays allocated (its pages are never
  // touched, so they cost no memory), so that the next blocks start on it.
  if (from - at > 64) {
    void* volatile below = std::malloc(from - at - 32);
    (void)below;
  }
}

}  // namespace

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
__attribute__((section(".preinit_array"), used)) static void (*const kEarlyHeap)() = early_heap_on_huge_pages;
#endif

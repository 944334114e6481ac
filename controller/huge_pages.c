// SPDX-License-Identifier: MIT
// Memory the moves walk at random (the static index of a large level) asks the OS for huge pages: a move reads a few
// cache lines in each of its arrays, and with 4 KiB pages each line of a level of tens of megabytes is a page of its
// own, a page-table walk when the processor's translation cache no longer holds it.
#if defined( __linux__ )
#define _DEFAULT_SOURCE // madvise under -std=c11
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "internal.h"

#include <stdint.h>

void* kcc_alloc_walked( size_t size )
{
	void* memory = kcc_alloc( size );
#if defined( __linux__ ) && defined( MADV_HUGEPAGE )
	// Only the whole 2 MiB pages inside the block can be huge: a block of 4 MiB holds one wherever it starts. The
	// advice is given before the memory is first written, so that the first writes already get huge pages; it is only
	// advice (a kernel without transparent huge pages, or one set to never use them, ignores it).
	const uintptr_t huge = (uintptr_t)2 << 20;
	long page = sysconf( _SC_PAGESIZE );
	if ( memory != NULL && size >= 2 * huge && page > 0 )
	{
		uintptr_t small = (uintptr_t)page;
		uintptr_t start = ( (uintptr_t)memory + small - 1 ) / small * small;
		uintptr_t end = ( (uintptr_t)memory + size ) / small * small;
		(void)madvise( (void*)start, (size_t)( end - start ), MADV_HUGEPAGE );
	}
#endif
	return memory;
}

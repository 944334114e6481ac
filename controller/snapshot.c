// SPDX-License-Identifier: MIT
// The batch's picture of the non-static world: every shape of the space's kinematic and dynamic bodies (sleeping ones
// included), read once per batch (the bodies listed on the calling thread, their shapes read on the batch's workers
// when the space lists the same bodies as the last read), and those a move of the batch may read put in a uniform grid
// by a box holding every place the shape can be during the batch. A batch move gathers those shapes from it instead
// of asking Chipmunk, so moves touch no Chipmunk space structure and any number of threads may query it at once.
#include "internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

// Grid limits, as the static index's: cells and entries per shape, plus a little for tiny worlds.
#define KCC_SNAPSHOT_CELLS_PER_SHAPE 2
#define KCC_SNAPSHOT_ENTRIES_PER_SHAPE 8
#define KCC_SNAPSHOT_GRID_SLACK 64

void kcc_snapshot_free( kcc_snapshot* s )
{
	if ( s == NULL )
	{
		return;
	}
	kcc_free( s->bodies );
	kcc_free( s->others );
	kcc_free( s->sorted );
	kcc_free( s->order );
	kcc_free( s->shapes );
	kcc_free( s->cell_start );
	kcc_free( s->entries );
	kcc_free( s->slots );
	kcc_free( s->crates );
	kcc_free( s->loose );
	kcc_free( s->listed );
	kcc_free( s->pending );
	for ( int i = 0; i < s->context_count; ++i )
	{
		kcc_move_context_free( s->contexts + i );
	}
	kcc_free( s->contexts );
	kcc_free( s->listings );
	kcc_free( s );
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the space

// kcc_reserve, or, when the snapshot is fixed, false where it would have to grow.
static bool kcc_snapshot_reserve( const kcc_snapshot* s, void** array, int* capacity, int needed, size_t size )
{
	return needed <= *capacity || ( s->fixed == false && kcc_reserve( array, capacity, needed, size ) );
}

typedef struct kcc_snapshot_reader
{
	kcc_snapshot* s;
	int previous_bodies; ///< bodies of the last read (same_bodies compares with them)
	bool shapes;         ///< read each body's shapes too
	bool failed;         ///< out of memory
} kcc_snapshot_reader;

// Reads one body's shapes into shapes[next .. end), growing the array when grow (else false once they pass end).
typedef struct kcc_shape_reader
{
	kcc_snapshot* s;
	int body;
	int next, end;
	bool grow;
	bool failed;
} kcc_shape_reader;

// Adds a shape, its box, sensor flag and filter as Chipmunk holds them.
KCC_ALWAYS_INLINE void kcc_snapshot_add_shape( kcc_shape_reader* r, cpShape* shape, cpBB bb, bool sensor,
											   cpShapeFilter filter )
{
	kcc_snapshot* s = r->s;
	if ( r->failed == false && r->next == r->end )
	{
		r->failed = r->grow == false || kcc_snapshot_reserve( s, (void**)&s->shapes, &s->shape_capacity, r->next + 1,
															   sizeof( *s->shapes ) ) == false;
		r->end = s->shape_capacity;
	}
	if ( r->failed )
	{
		return;
	}
	kcc_snapshot_shape* sh = s->shapes + r->next++;
	sh->shape = shape;
	sh->indexed = bb;
	sh->grid = bb;
	sh->body = r->body;
	sh->writable = false;
	sh->loose = false;
	sh->sensor = sensor;
	sh->filter = filter;
	sh->wave = 0;
}

static void kcc_snapshot_read_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	kcc_snapshot_add_shape( data, shape, cpShapeGetBB( shape ), cpShapeGetSensor( shape ) != cpFalse,
							cpShapeGetFilter( shape ) );
}

#if defined( KCC_ENABLE_ASSERT )
static void kcc_count_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	(void)shape;
	*(int*)data += 1;
}

// Whether Chipmunk holds the character's body and shape as its controller says (the game changed neither).
static bool kcc_snapshot_character_holds( const kcc_controller* c, const cpBody* body )
{
	int shapes = 0;
	cpBodyEachShape( (cpBody*)body, kcc_count_shape, &shapes );
	cpBB bb = cpShapeGetBB( c->shape );
	cpShapeFilter filter = cpShapeGetFilter( c->shape );
	return shapes == 1 && cpShapeGetBody( c->shape ) == body && cpShapeGetSensor( c->shape ) == cpFalse &&
		   bb.l == c->shape_bb.l && bb.b == c->shape_bb.b && bb.r == c->shape_bb.r && bb.t == c->shape_bb.t &&
		   filter.group == c->query_filter.group && filter.categories == c->query_filter.categories &&
		   filter.mask == c->query_filter.mask;
}
#endif

// Reads body b's shapes from shapes[first] on: at most count of them, or as many as there are when grow. False when
// memory ran out, or when not growing and the body has other than count shapes.
KCC_ALWAYS_INLINE bool kcc_snapshot_read_body_shapes( kcc_snapshot* s, int b, int first, int count, bool grow )
{
	kcc_snapshot_body* body = s->bodies + b;
	kcc_shape_reader r = { s, b, first, grow ? s->shape_capacity : first + count, grow, false };
	if ( body->controller != NULL )
	{
		// The body and its one shape are the controller's own (the game changes neither): their place, box and filter
		// are where the controller keeps them, read without touching Chipmunk's memory.
		const kcc_controller* c = body->controller;
		KCC_ASSERT( kcc_snapshot_character_holds( c, body->body ),
					"kcc_move_and_slide_batch: a character's body or shape was changed outside kcc2d (moved, given a "
					"shape, its filter or sensor flag set)" );
		kcc_snapshot_add_shape( &r, c->shape, c->shape_bb, false, c->query_filter );
	}
	else
	{
		cpBodyEachShape( (cpBody*)body->body, kcc_snapshot_read_shape, &r );
	}
	body->first_shape = first;
	body->shape_count = r.next - first;
	body->mover = -1;
	body->seq = 0;
	return r.failed == false && ( grow || r.next == first + count );
}

bool kcc_snapshot_read_character( kcc_snapshot* s, int b )
{
	kcc_snapshot_body* body = s->bodies + b;
	const kcc_controller* c = body->controller;
	KCC_ASSERT( kcc_snapshot_character_holds( c, body->body ),
				"kcc_move_and_slide_batch: a character's body or shape was changed outside kcc2d (moved, given a "
				"shape, its filter or sensor flag set)" );
	// Its place holds its shape since the read that found the body there (the shape, its body and its sensor flag
	// are the same since).
	kcc_snapshot_shape* sh = s->shapes + body->first_shape;
	sh->indexed = c->shape_bb;
	sh->grid = c->shape_bb;
	sh->writable = false;
	sh->loose = false;
	sh->filter = c->query_filter;
	sh->wave = 0;
	sh->readable = kcc_filter_reads( s->readers_guess, c->query_filter ); // a character's shape is no sensor
	body->mover = -1;
	body->seq = 0;
	return sh->readable;
}

int kcc_snapshot_read_characters( kcc_snapshot* s )
{
	int readable = 0;
	for ( int b = 0; b < s->body_count; ++b )
	{
		const kcc_controller* c = s->bodies[b].controller;
		if ( c != NULL && atomic_load_explicit( &c->batch_stamp, memory_order_relaxed ) != s->stamp )
		{
			readable += kcc_snapshot_read_character( s, b ) ? 1 : 0;
		}
	}
	return readable;
}

// Lists a non-static body, and reads its shapes when r->shapes. character: a character's body where the last read
// listed it, kinematic still (its controller owns it): its place holds it already, and it is not read, so that its
// memory stays with the worker that moves it. Not inlined into kcc_snapshot_read_body, whose usual path is then a few
// instructions.
#if defined( __GNUC__ ) || defined( __clang__ )
__attribute__( ( noinline ) )
#endif
static void kcc_snapshot_list_body( cpBody* body, kcc_snapshot_reader* r, bool character )
{
	kcc_snapshot* s = r->s;
	if ( r->failed )
	{
		return;
	}
	if ( character == false )
	{
		cpBodyType type = cpBodyGetType( body );
		if ( type == CP_BODY_TYPE_STATIC )
		{
			return; // the static index answers for static bodies
		}
		s->dynamic_count += type == CP_BODY_TYPE_DYNAMIC ? 1 : 0;
		int room = s->body_count + 1;
		if ( kcc_snapshot_reserve( s, (void**)&s->bodies, &s->body_capacity, room, sizeof( *s->bodies ) ) == false ||
			 kcc_snapshot_reserve( s, (void**)&s->others, &s->other_capacity, s->other_count + 1,
								   sizeof( *s->others ) ) == false )
		{
			r->failed = true;
			return;
		}
		s->others[s->other_count++] = s->body_count;
		kcc_snapshot_body* b = s->bodies + s->body_count;
		s->same_bodies &= s->body_count < r->previous_bodies && b->body == body;
		b->body = body;
		b->controller = NULL;
		kcc_snapshot_set_pending( b, 0 ); // a new place may hold any stamp
	}
	s->body_count += 1;
	s->character_count += character ? 1 : 0;
	if ( r->shapes )
	{
		r->failed = kcc_snapshot_read_body_shapes( s, s->body_count - 1, s->shape_count, 0, true ) == false;
		s->shape_count += s->bodies[s->body_count - 1].shape_count;
	}
}

static void kcc_snapshot_read_body( cpBody* body, void* data )
{
	kcc_snapshot_reader* r = data;
	kcc_snapshot* s = r->s;
	const kcc_snapshot_body* last = s->body_count < r->previous_bodies ? s->bodies + s->body_count : NULL;
	bool character = last != NULL && last->body == body && last->controller != NULL;
	if ( character && r->shapes == false && r->failed == false )
	{
		s->body_count += 1; // kcc_snapshot_list_body's path for it
		s->character_count += 1;
		return;
	}
	kcc_snapshot_list_body( body, r, character );
}

// Heap sort of the body indices by pointer value (no allocation; only for finding a body, never for an order that a
// result depends on).
static bool kcc_body_less( const kcc_snapshot* s, int a, int b )
{
	return (uintptr_t)s->bodies[a].body < (uintptr_t)s->bodies[b].body;
}

static void kcc_sift_down( const kcc_snapshot* s, int* v, int root, int count )
{
	for ( ;; )
	{
		int child = 2 * root + 1;
		if ( child >= count )
		{
			return;
		}
		if ( child + 1 < count && kcc_body_less( s, v[child], v[child + 1] ) )
		{
			child += 1;
		}
		if ( kcc_body_less( s, v[root], v[child] ) == false )
		{
			return;
		}
		int t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

static void kcc_sort_bodies( kcc_snapshot* s )
{
	int n = s->body_count;
	int* v = s->sorted;
	for ( int i = 0; i < n; ++i )
	{
		v[i] = i;
	}
	for ( int i = n / 2 - 1; i >= 0; --i )
	{
		kcc_sift_down( s, v, i, n );
	}
	for ( int end = n - 1; end > 0; --end )
	{
		int t = v[0];
		v[0] = v[end];
		v[end] = t;
		kcc_sift_down( s, v, 0, end );
	}
}

// Where shape is among body's shapes in shapes, or -1.
static int kcc_snapshot_shape_of( const kcc_snapshot* s, const kcc_snapshot_body* body, const cpShape* shape )
{
	for ( int i = body->first_shape; i < body->first_shape + body->shape_count; ++i )
	{
		if ( s->shapes[i].shape == shape )
		{
			return i;
		}
	}
	return -1;
}

// Whether the pending shape's hints point at its body, one of the bodies just read, and at itself on that body.
static bool kcc_pending_hints_hold( const kcc_snapshot* s, const kcc_pending_shape* p )
{
	int b = p->body_hint, i = p->shape_hint;
	return b >= 0 && b < s->body_count && s->bodies[b].body == p->body && i >= 0 && i < s->shape_count &&
		   s->shapes[i].shape == p->shape && s->shapes[i].body == b;
}

// The pending shapes still in the space (the game may have removed and freed a body or a shape since): each is kept
// when its body is among the bodies just read and it is among that body's shapes (compared by value, never read).
// A body is in bodies once: where its hints point, when they hold the same pointers, is what the search would find.
void kcc_snapshot_keep_pending( kcc_snapshot* s )
{
	int kept = 0;
	for ( int k = 0; k < s->pending_count; ++k )
	{
		kcc_pending_shape* p = s->pending + k;
		int b = p->body_hint, i = p->shape_hint;
		if ( kcc_pending_hints_hold( s, p ) == false )
		{
			b = kcc_snapshot_body_index( s, p->body );
			i = b >= 0 ? kcc_snapshot_shape_of( s, s->bodies + b, p->shape ) : -1;
			if ( i < 0 )
			{
				continue;
			}
			p->body_hint = b;
			p->shape_hint = i;
		}
		kcc_snapshot_set_pending( s->bodies + b, s->stamp );
		if ( kept != k )
		{
			s->pending[kept] = *p;
		}
		kept += 1;
	}
	s->pending_count = kept;
}

bool kcc_snapshot_mark_pending( kcc_snapshot* s, int start, int end )
{
	for ( int k = start; k < end; ++k )
	{
		const kcc_pending_shape* p = s->pending + k;
		if ( kcc_pending_hints_hold( s, p ) == false )
		{
			return false;
		}
		kcc_snapshot_set_pending( s->bodies + p->body_hint, s->stamp );
	}
	return true;
}

void kcc_snapshot_forget_character( const kcc_controller* c )
{
	kcc_snapshot* s = c->static_index != NULL ? *kcc_static_index_snapshot( c->static_index ) : NULL;
	int b = c->batch_body;
	// Only the place where its own batch last found it can say so (kcc_snapshot_read_body keeps the mark nowhere else).
	if ( s != NULL && b >= 0 && b < s->body_capacity && s->bodies[b].body == c->body )
	{
		s->bodies[b].controller = NULL;
	}
}

bool kcc_snapshot_read_bodies( kcc_snapshot* s, cpSpace* space, bool shapes )
{
	s->space = space;
	// A stamp that no body's pending mark holds, nor the controller of any body the last read found (the only ones
	// kcc_snapshot_read_characters asks): after the counter wraps, their old stamps are cleared.
	s->stamp += 1;
	if ( s->stamp == 0 )
	{
		for ( int b = 0; b < s->body_capacity; ++b )
		{
			kcc_snapshot_set_pending( s->bodies + b, 0 );
			if ( b < s->sorted_count && s->bodies[b].controller != NULL )
			{
				atomic_store_explicit( &s->bodies[b].controller->batch_stamp, 0u, memory_order_relaxed );
			}
		}
		s->stamp = 1;
	}
	s->body_count = 0;
	s->character_count = 0;
	s->other_count = 0;
	s->shape_count = 0;
	s->crate_count = 0;
	s->loose_count = 0;
	s->grid_ready = false;
	s->writable_solids = cpShapeFilterNew( CP_NO_GROUP, 0, 0 );
	s->writable_sensors = cpShapeFilterNew( CP_NO_GROUP, 0, 0 );
	s->readers = cpShapeFilterNew( CP_NO_GROUP, CP_ALL_CATEGORIES, CP_ALL_CATEGORIES );
	s->sensor_readers = s->readers;
	s->dynamic_count = 0;
	// The bodies of the last read (the sort and the shapes' places are kept when the space lists the same bodies in the
	// same order); none after a read that failed half-way (its bodies are not those sorted).
	kcc_snapshot_reader reader = { s, s->sorted_count, shapes, false };
	s->sorted_count = 0;
	s->same_bodies = reader.previous_bodies > 0;
	cpSpaceEachBody( space, kcc_snapshot_read_body, &reader );
	s->same_bodies &= s->body_count == reader.previous_bodies && reader.failed == false;
	if ( s->same_bodies && shapes == false )
	{
		const kcc_snapshot_body* last = s->bodies + s->body_count - 1;
		s->shape_count = last->first_shape + last->shape_count;
	}
	return reader.failed == false;
}

bool kcc_snapshot_read_shapes( kcc_snapshot* s, int start, int end )
{
	bool same = true;
	for ( int k = start; k < end; ++k )
	{
		int b = s->others[k];
		same &= kcc_snapshot_read_body_shapes( s, b, s->bodies[b].first_shape, s->bodies[b].shape_count, false );
	}
	return same;
}

bool kcc_snapshot_read_end( kcc_snapshot* s, bool shapes_read, int slot_count, bool keep_pending )
{
	if ( shapes_read == false )
	{
		s->shape_count = 0;
		for ( int b = 0; b < s->body_count; ++b )
		{
			if ( kcc_snapshot_read_body_shapes( s, b, s->shape_count, 0, true ) == false )
			{
				return false;
			}
			s->shape_count += s->bodies[b].shape_count;
		}
	}
	int bodies = s->body_count, shapes = s->shape_count, slots = 2 * ( slot_count + 1 );
	if ( kcc_snapshot_reserve( s, (void**)&s->sorted, &s->sorted_capacity, bodies, sizeof( *s->sorted ) ) == false ||
		 kcc_snapshot_reserve( s, (void**)&s->order, &s->order_capacity, bodies, sizeof( *s->order ) ) == false ||
		 kcc_snapshot_reserve( s, (void**)&s->loose, &s->loose_capacity, shapes, sizeof( *s->loose ) ) == false ||
		 kcc_snapshot_reserve( s, (void**)&s->listed, &s->listed_capacity, shapes, sizeof( *s->listed ) ) == false ||
		 kcc_snapshot_reserve( s, (void**)&s->slots, &s->slot_capacity, slots, sizeof( *s->slots ) ) == false )
	{
		return false;
	}
	if ( s->same_bodies == false )
	{
		kcc_sort_bodies( s );
	}
	s->sorted_count = s->body_count;
	if ( keep_pending )
	{
		kcc_snapshot_keep_pending( s );
	}
	// Room for every shape read to join the pending list at the batch's end (a later kcc_snapshot_keep_pending only
	// shortens it).
	return kcc_snapshot_reserve( s, (void**)&s->pending, &s->pending_capacity, s->pending_count + s->shape_count,
								 sizeof( *s->pending ) );
}

bool kcc_snapshot_read( kcc_snapshot* s, cpSpace* space, int slot_count )
{
	return kcc_snapshot_read_bodies( s, space, true ) && kcc_snapshot_read_end( s, true, slot_count, true );
}

int kcc_snapshot_body_index( const kcc_snapshot* s, const cpBody* body )
{
	int lo = 0, hi = s->body_count;
	while ( lo < hi )
	{
		int mid = lo + ( hi - lo ) / 2;
		const cpBody* b = s->bodies[s->sorted[mid]].body;
		if ( b == body )
		{
			return s->sorted[mid];
		}
		if ( (uintptr_t)b < (uintptr_t)body )
		{
			lo = mid + 1;
		}
		else
		{
			hi = mid;
		}
	}
	return -1;
}

bool kcc_snapshot_add_crate( kcc_snapshot* s, int shape )
{
	if ( kcc_reserve( (void**)&s->crates, &s->crate_capacity, s->crate_count + 1, sizeof( *s->crates ) ) == false )
	{
		return false;
	}
	s->crates[s->crate_count++] = shape;
	kcc_snapshot_set_writable( s, shape );
	return true;
}

// ---------------------------------------------------------------------------------------------------------------
// The grid

// Finite and not inverted (each comparison fails on NaN).
static bool kcc_snapshot_finite( cpBB bb )
{
	return -DBL_MAX <= bb.l && bb.l <= bb.r && bb.r <= DBL_MAX && -DBL_MAX <= bb.b && bb.b <= bb.t && bb.t <= DBL_MAX;
}

// The cell of x along one axis of last + 1 cells: clamped to them (NaN: the first), without a branch.
static inline int kcc_snapshot_cell( double x, double origin, double inverse_cell, double last )
{
	double v = ( x - origin ) * inverse_cell;
	v = v > 0.0 ? v : 0.0;
	return (int)( v < last ? v : last );
}

static inline int kcc_snapshot_column( const kcc_snapshot* s, double x )
{
	return kcc_snapshot_cell( x, s->bounds.l, s->inverse_cell, (double)( s->columns - 1 ) );
}

static inline int kcc_snapshot_row( const kcc_snapshot* s, double y )
{
	return kcc_snapshot_cell( y, s->bounds.b, s->inverse_cell, (double)( s->rows - 1 ) );
}

// The cells of each listed shape in the grid of s->columns x s->rows cells, counted per cell in cell_start[cell]
// (zeroed first). False as soon as the entries pass max_entries (the counts are then unfinished).
static bool kcc_snapshot_count_cells( kcc_snapshot* s, int64_t max_entries )
{
	uint32_t* count = s->cell_start;
	int columns = s->columns;
	double last_column = (double)( s->columns - 1 ), last_row = (double)( s->rows - 1 );
	double left = s->bounds.l, bottom = s->bounds.b, inverse = s->inverse_cell;
	memset( count, 0, (size_t)( s->columns * s->rows ) * sizeof( *count ) );
	int64_t entries = 0;
	for ( int n = 0; n < s->listed_count; ++n )
	{
		kcc_snapshot_shape* sh = s->shapes + s->listed[n];
		cpBB g = sh->grid;
		int i0 = kcc_snapshot_cell( g.l, left, inverse, last_column );
		int i1 = kcc_snapshot_cell( g.r, left, inverse, last_column );
		int j0 = kcc_snapshot_cell( g.b, bottom, inverse, last_row );
		int j1 = kcc_snapshot_cell( g.t, bottom, inverse, last_row );
		sh->cells[0] = i0;
		sh->cells[1] = i1;
		sh->cells[2] = j0;
		sh->cells[3] = j1;
		// Checked before the cells are walked: a grid too fine for the boxes costs no more than the limit.
		entries += (int64_t)( i1 - i0 + 1 ) * (int64_t)( j1 - j0 + 1 );
		if ( entries > max_entries )
		{
			return false;
		}
		for ( int j = j0; j <= j1; ++j )
		{
			for ( int k = i0; k <= i1; ++k )
			{
				count[j * columns + k] += 1;
			}
		}
	}
	return true;
}

// Marks shape i readable or not, and lists it when readable with a finite grid box (the listed boxes' bounds and summed
// sizes grow with it).
static inline void kcc_snapshot_grid_shape( kcc_snapshot* s, int i, cpBB* bounds, double* size )
{
	kcc_snapshot_shape* sh = s->shapes + i;
	sh->readable = kcc_snapshot_readable( s, sh );
	if ( sh->readable && kcc_snapshot_finite( sh->grid ) )
	{
		s->listed[s->listed_count++] = i;
		*bounds = cpBBMerge( *bounds, sh->grid );
		double w = sh->grid.r - sh->grid.l, h = sh->grid.t - sh->grid.b;
		*size += w > h ? w : h; // neither is NaN (the box is finite)
	}
}

bool kcc_snapshot_build_grid( kcc_snapshot* s )
{
	// Cell: the power of two at or above the larger side of the grid boxes, on average (most shapes then sit in one to
	// four cells, and a query meets a few); then doubled until the grid and its entries fit the limits.
	// The grid lists the shapes whose grid box is finite (a query never meets another, as Chipmunk's own test fails on
	// such a box too) and that a move may read; the others are in no cell (only a listed shape's cells are read).
	// Where no move may read a character's shape, those are not looked at: their memory stays with the workers that
	// move them.
	cpBB bounds = { INFINITY, INFINITY, -INFINITY, -INFINITY };
	double size = 0.0;
	s->listed_count = 0;
	if ( s->characters_hidden == false )
	{
		for ( int i = 0; i < s->shape_count; ++i )
		{
			kcc_snapshot_grid_shape( s, i, &bounds, &size );
		}
	}
	else
	{
		for ( int k = 0; k < s->other_count; ++k )
		{
			const kcc_snapshot_body* body = s->bodies + s->others[k];
			for ( int i = body->first_shape; i < body->first_shape + body->shape_count; ++i )
			{
				kcc_snapshot_grid_shape( s, i, &bounds, &size );
			}
		}
	}
	int finite = s->listed_count;
	s->bounds = finite > 0 ? bounds : cpBBNew( 0.0, 0.0, 0.0, 0.0 );
	double cell = ldexp( 1.0, 0 );
	if ( finite > 0 && size > 0.0 && isfinite( size ) )
	{
		int exponent = 0;
		frexp( size / finite, &exponent );
		cell = ldexp( 1.0, exponent < -60 ? -60 : exponent > 60 ? 60 : exponent );
	}
	double max_cells = (double)KCC_SNAPSHOT_CELLS_PER_SHAPE * finite + KCC_SNAPSHOT_GRID_SLACK;
	double max_entries = (double)KCC_SNAPSHOT_ENTRIES_PER_SHAPE * finite + KCC_SNAPSHOT_GRID_SLACK;
	// Room for the limits, not for this grid: the next batches' grids (their boxes move) then fit without allocating.
	int cell_room = (int)max_cells + 1, entry_room = (int)max_entries;
	if ( kcc_reserve( (void**)&s->cell_start, &s->cell_capacity, cell_room, sizeof( *s->cell_start ) ) == false ||
		 kcc_reserve( (void**)&s->entries, &s->entry_capacity, entry_room, sizeof( *s->entries ) ) == false )
	{
		return false;
	}
	for ( ;; )
	{
		double columns = floor( ( s->bounds.r - s->bounds.l ) / cell ) + 1.0;
		double rows = floor( ( s->bounds.t - s->bounds.b ) / cell ) + 1.0;
		if ( columns * rows <= max_cells )
		{
			s->inverse_cell = 1.0 / cell;
			s->columns = (int)columns;
			s->rows = (int)rows;
			if ( kcc_snapshot_count_cells( s, (int64_t)max_entries ) )
			{
				break;
			}
		}
		cell *= 2.0;
	}
	// Counting sort of the entries by cell, each cell listing its shapes in snapshot order: the counts summed into
	// each cell's end, then the shapes from the last one back, each cell's end moving down to its first entry.
	int cells = s->columns * s->rows, columns = s->columns;
	uint32_t* start = s->cell_start;
	uint32_t* entries = s->entries;
	for ( int k = 1; k < cells; ++k )
	{
		start[k] += start[k - 1];
	}
	start[cells] = start[cells - 1];
	for ( int n = s->listed_count - 1; n >= 0; --n )
	{
		int i = s->listed[n];
		const kcc_snapshot_shape* sh = s->shapes + i;
		for ( int j = sh->cells[2]; j <= sh->cells[3]; ++j )
		{
			for ( int k = sh->cells[0]; k <= sh->cells[1]; ++k )
			{
				entries[--start[j * columns + k]] = (uint32_t)i;
			}
		}
	}
	s->grid_ready = true;
	return true;
}

void kcc_snapshot_query_shapes( const kcc_snapshot* s, cpBB box, cpShapeFilter filter, kcc_snapshot_reads* reads,
								kcc_snapshot_visit* visit, void* data )
{
	if ( s->shape_count == 0 || cpBBIntersects( box, s->bounds ) == false )
	{
		return;
	}
	int i0 = kcc_snapshot_column( s, box.l ), i1 = kcc_snapshot_column( s, box.r );
	int j0 = kcc_snapshot_row( s, box.b ), j1 = kcc_snapshot_row( s, box.t );
	// In locals: as far as the compiler knows, the callbacks could change *s.
	const uint32_t* cell_start = s->cell_start;
	const uint32_t* entries = s->entries;
	const kcc_snapshot_shape* shapes = s->shapes;
	size_t columns = (size_t)s->columns;
	for ( int j = j0; j <= j1; ++j )
	{
		for ( int i = i0; i <= i1; ++i )
		{
			size_t cell = (size_t)j * columns + (size_t)i;
			for ( uint32_t e = cell_start[cell], end = cell_start[cell + 1]; e < end; ++e )
			{
				const kcc_snapshot_shape* sh = shapes + entries[e];
				// The grid box first: a shape whose grid box misses the query is never read, so a move never reads a
				// shape another thread may be moving.
				if ( cpBBIntersects( box, sh->grid ) == false || sh->loose )
				{
					continue;
				}
				if ( ( i > i0 && sh->cells[0] != i ) || ( j > j0 && sh->cells[2] != j ) )
				{
					continue; // reported from the first cell of the query that holds it
				}
				// Then what cpSpaceBBQuery keeps: Chipmunk's filter rule (the query's own shape gives the group
				// of filter), the rest of the gather's tests on what never changes during a batch (reads), and
				// the shape's current box, read live.
				if ( kcc_filter_rejects( sh->filter, filter ) || reads( sh, data ) == false ||
					 cpBBIntersects( box, cpShapeGetBB( sh->shape ) ) == false )
				{
					continue;
				}
				visit( sh->shape, data );
			}
		}
	}
	// The shapes that left their grid boxes so far in an array-order batch (no other move runs meanwhile).
	for ( int k = 0; k < s->loose_count; ++k )
	{
		const kcc_snapshot_shape* sh = s->shapes + s->loose[k];
		if ( reads( sh, data ) && cpBBIntersects( box, cpShapeGetBB( sh->shape ) ) )
		{
			visit( sh->shape, data );
		}
	}
}

void kcc_snapshot_order_moved( kcc_snapshot* s, int mover_count )
{
	// The moved bodies in the order sequential moves last reindexed them (Chipmunk's index then lists them as
	// sequential calls leave it): a counting sort by mover, then by order within one move (a few bodies each).
	int* start = s->slots;
	memset( start, 0, (size_t)( mover_count + 1 ) * sizeof( *start ) );
	for ( int b = 0; b < s->body_count; ++b )
	{
		if ( s->bodies[b].mover >= 0 )
		{
			start[s->bodies[b].mover + 1] += 1;
		}
	}
	for ( int m = 0; m < mover_count; ++m )
	{
		start[m + 1] += start[m];
	}
	int* first = s->slots + mover_count + 1; // each mover's first place, kept while start moves on
	memcpy( first, start, (size_t)( mover_count + 1 ) * sizeof( *first ) );
	int* order = s->order;
	for ( int b = 0; b < s->body_count; ++b )
	{
		int m = s->bodies[b].mover;
		if ( m < 0 )
		{
			continue;
		}
		int j = start[m]++;
		while ( j > first[m] && s->bodies[order[j - 1]].seq > s->bodies[b].seq )
		{
			order[j] = order[j - 1];
			j -= 1;
		}
		order[j] = b;
	}
	s->moved_first = first;
}

bool kcc_snapshot_moved_unpending( const kcc_snapshot* s )
{
	bool found = false;
	for ( int w = 0; w < s->context_count && s->pending_marked; ++w )
	{
		found |= s->contexts[w].moved_unpending;
	}
	for ( int b = 0; b < s->body_count && s->pending_marked == false; ++b )
	{
		found |= s->bodies[b].mover >= 0 && kcc_snapshot_body_pending( s, s->bodies + b ) == false;
	}
	return found;
}

void kcc_snapshot_reindex_mover( kcc_snapshot* s, kcc_controller* c, int mover, bool deferred )
{
	for ( int k = s->moved_first[mover]; k < s->moved_first[mover + 1]; ++k )
	{
		kcc_snapshot_body* b = s->bodies + s->order[k];
		if ( deferred && kcc_snapshot_body_pending( s, b ) )
		{
			continue; // Chipmunk's index still holds it where the earlier batch found it
		}
		for ( int i = 0; i < b->shape_count; ++i )
		{
			const kcc_snapshot_shape* sh = s->shapes + b->first_shape + i;
			if ( deferred )
			{
				s->pending[s->pending_count++] =
					( kcc_pending_shape ){ b->body, sh->shape, sh->indexed, s->order[k], b->first_shape + i };
			}
			else if ( sh->shape == c->shape )
			{
				kcc_world_reindex_owned( c, sh->indexed );
			}
			else
			{
				kcc_world_reindex_shape( s->space, sh->shape, sh->indexed );
			}
		}
		kcc_snapshot_set_pending( b, deferred ? s->stamp : 0 );
	}
}

kcc_snapshot* kcc_snapshot_of( kcc_static_index* index )
{
	kcc_snapshot** kept = kcc_static_index_snapshot( index );
	if ( *kept == NULL )
	{
		*kept = kcc_alloc( sizeof( kcc_snapshot ) );
		if ( *kept != NULL )
		{
			memset( *kept, 0, sizeof( kcc_snapshot ) );
		}
	}
	return *kept;
}

// The non-static bodies skip .. skip + the bodies array's capacity, in cpSpaceEachBody's order, into that array.
typedef struct kcc_body_chunk
{
	kcc_snapshot* s;
	int skip;  ///< bodies passed over
	int seen;  ///< non-static bodies met
	int count; ///< put in the array
} kcc_body_chunk;

static void kcc_chunk_body( cpBody* body, void* data )
{
	kcc_body_chunk* k = data;
	if ( cpBodyGetType( body ) != CP_BODY_TYPE_STATIC && k->seen++ >= k->skip && k->count < k->s->body_capacity )
	{
		k->s->bodies[k->count++].body = body;
	}
}

// Every non-static body reindexed where it is, without allocating: Chipmunk locks the space while it lists them, so
// they are listed a bodies array at a time, then reindexed.
static void kcc_snapshot_reindex_all( kcc_snapshot* s, cpSpace* space )
{
	for ( int skip = 0; s->body_capacity > 0; skip += s->body_capacity )
	{
		kcc_body_chunk k = { s, skip, 0, 0 };
		cpSpaceEachBody( space, kcc_chunk_body, &k );
		for ( int i = 0; i < k.count; ++i )
		{
			kcc_space_reindex_body( space, (cpBody*)s->bodies[i].body );
		}
		if ( k.seen <= skip + k.count )
		{
			return;
		}
	}
}

void kcc_snapshot_sync( kcc_snapshot* s, cpSpace* space, bool grow )
{
	if ( s->pending_count == 0 )
	{
		return;
	}
	s->fixed = grow == false;
	bool read = kcc_snapshot_read( s, space, 0 );
	s->fixed = false;
	if ( read )
	{
		for ( int k = 0; k < s->pending_count; ++k )
		{
			const kcc_pending_shape* p = s->pending + k;
			kcc_controller* character = kcc_world_character_of( p->shape );
			if ( character != NULL )
			{
				kcc_world_reindex_owned( character, p->indexed );
			}
			else
			{
				kcc_world_reindex_shape( space, p->shape, p->indexed );
			}
		}
	}
	else
	{
		// No memory (or none to be had) to tell which pending shapes are still there: every body that may have moved,
		// where it is.
		kcc_snapshot_reindex_all( s, space );
	}
	s->pending_count = 0;
	kcc_snapshot_spent( s );
}

void kcc_snapshot_spent( kcc_snapshot* s )
{
	s->grid_ready = false;
	s->loose_count = 0;
	s->body_count = 0; // the next batch reads the space again
	s->shape_count = 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Waves

bool kcc_snapshot_walks( const kcc_snapshot* s, const kcc_controller* c )
{
	// The filters' rule on their OR-ed categories and masks rejects a set only when it rejects each of its shapes.
	return kcc_world_may_read( c, NULL, s->writable_solids, false ) ||
		   kcc_world_may_read( c, NULL, s->writable_sensors, true );
}

bool kcc_snapshot_any_walks( const kcc_snapshot* s )
{
	// The rule on both sides' OR-ed categories and masks rejects the two sets only when it rejects every pair of a
	// reader and a shape.
	return kcc_filter_reads( s->readers, s->writable_solids ) ||
		   kcc_filter_reads( s->sensor_readers, s->writable_sensors );
}

int64_t kcc_snapshot_wave_work( const kcc_snapshot* s, const kcc_controller* c )
{
	cpBB influence = c->influence;
	int i0 = kcc_snapshot_column( s, influence.l ), i1 = kcc_snapshot_column( s, influence.r );
	int j0 = kcc_snapshot_row( s, influence.b ), j1 = kcc_snapshot_row( s, influence.t );
	int64_t entries = 0;
	for ( int j = j0; j <= j1; ++j )
	{
		size_t row = (size_t)j * (size_t)s->columns;
		entries += (int64_t)s->cell_start[row + (size_t)i1 + 1] - (int64_t)s->cell_start[row + (size_t)i0];
	}
	return entries;
}

// The wave of the move of c: one after the last wave that touched a shape it may touch (its own shapes, which it moves,
// and the moving shapes its queries may read, in its influence box), which then records it.
#define KCC_WAVE_TOUCHES 64

int kcc_snapshot_wave( kcc_snapshot* s, const kcc_controller* c )
{
	int touched[KCC_WAVE_TOUCHES];
	int count = 0;
	bool overflow = false;
	int wave = 0;
	if ( c->batch_body >= 0 )
	{
		const kcc_snapshot_body* b = s->bodies + c->batch_body;
		for ( int k = 0; k < b->shape_count; ++k )
		{
			int index = b->first_shape + k;
			wave = s->shapes[index].wave > wave ? s->shapes[index].wave : wave;
			if ( count < KCC_WAVE_TOUCHES )
			{
				touched[count++] = index;
			}
			else
			{
				overflow = true;
			}
		}
	}
	cpBB influence = c->influence;
	// A character whose filter rejects every moving shape's categories (characters that ignore each other, and no
	// crate it may meet) reads none of them: nothing to walk.
	int i0 = 0, i1 = -1, j0 = 0, j1 = -1;
	if ( c->batch_walks )
	{
		i0 = kcc_snapshot_column( s, influence.l );
		i1 = kcc_snapshot_column( s, influence.r );
		j0 = kcc_snapshot_row( s, influence.b );
		j1 = kcc_snapshot_row( s, influence.t );
	}
	for ( int j = j0; j <= j1; ++j )
	{
		for ( int i = i0; i <= i1; ++i )
		{
			size_t cell = (size_t)j * (size_t)s->columns + (size_t)i;
			for ( uint32_t e = s->cell_start[cell], end = s->cell_start[cell + 1]; e < end; ++e )
			{
				const kcc_snapshot_shape* sh = s->shapes + s->entries[e];
				if ( ( i > i0 && sh->cells[0] != i ) || ( j > j0 && sh->cells[2] != j ) )
				{
					continue; // met in the first cell of the box that holds it
				}
				// What kcc_snapshot_query reads beyond the shape's filter: its box, then (in the move) its geometry.
				if ( sh->writable && cpBBIntersects( influence, sh->grid ) &&
					 kcc_world_may_read( c, sh->shape, sh->filter, sh->sensor ) )
				{
					wave = sh->wave > wave ? sh->wave : wave;
					if ( count < KCC_WAVE_TOUCHES )
					{
						touched[count++] = (int)s->entries[e];
					}
					else
					{
						overflow = true;
					}
				}
			}
		}
	}
	wave += 1;
	if ( overflow )
	{
		// More shapes than the buffer holds: all of them again, by the same tests.
		for ( int j = j0; j <= j1; ++j )
		{
			for ( int i = i0; i <= i1; ++i )
			{
				size_t cell = (size_t)j * (size_t)s->columns + (size_t)i;
				for ( uint32_t e = s->cell_start[cell], end = s->cell_start[cell + 1]; e < end; ++e )
				{
					kcc_snapshot_shape* sh = s->shapes + s->entries[e];
					if ( sh->writable && cpBBIntersects( influence, sh->grid ) &&
						 kcc_world_may_read( c, sh->shape, sh->filter, sh->sensor ) )
					{
						sh->wave = wave;
					}
				}
			}
		}
		if ( c->batch_body >= 0 )
		{
			const kcc_snapshot_body* b = s->bodies + c->batch_body;
			for ( int k = 0; k < b->shape_count; ++k )
			{
				s->shapes[b->first_shape + k].wave = wave;
			}
		}
	}
	for ( int k = 0; k < count; ++k )
	{
		s->shapes[touched[k]].wave = wave;
	}
	return wave;
}

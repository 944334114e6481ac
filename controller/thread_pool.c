// SPDX-License-Identifier: MIT
// kcc_thread_pool: a kcc_task_system on thread_count - 1 threads of its own plus the thread that calls finish.
#define _POSIX_C_SOURCE 200809L // pthreads, clock_gettime under -std=c11

#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/// Ranges a task is cut into per worker: enough that a worker that got slow ranges is helped by the others, and that the
/// last range a worker runs, while the others have nothing left, is a short one.
#define KCC_POOL_RANGES_PER_WORKER 16

/// How long an idle worker (or a finish waiting for the last ranges) polls before it sleeps on a condition variable.
/// Waking a sleeping thread costs tens of microseconds: the poll spans the gaps between the tasks of one batch (the
/// serial work between its phases), and ends well within a game's frame, so that a pool between frames sleeps.
#define KCC_POOL_SPIN_NS 300000

/// A worker whose last wait for a task outlasted KCC_POOL_SPIN_NS halves its next poll, down to this: tasks that
/// come far apart (one per frame, a batch with a single short task) do not cost a vain poll each.
#define KCC_POOL_SPIN_MIN_NS 10000

/// Polls between two reads of the clock, and between two sched_yield: a poll is a pause instruction (some tens of
/// nanoseconds). The yield hands the core to any other thread waiting for it, where a bare poll measured slower on a
/// shared machine (2 cores, other processes).
#define KCC_POOL_POLLS_PER_CLOCK 32

// A task's ranges are cut into one contiguous block per worker, its home share. A worker claims its own block's
// ranges from the front, in order, and only when that is empty steals from the end of the others': with the same
// tasks frame after frame (a game's batch of the same characters), each worker runs the same items each time, and
// their memory stays in its core's cache instead of moving between cores every frame. Front and end are packed in one
// word, so that the owner and a thief claim with one compare-and-swap.
typedef struct kcc_pool_block
{
	/// The block's unclaimed ranges: front in the low 32 bits, end above. On a line of its own: claiming a range does
	/// not take the line another worker claims from.
	_Alignas( KCC_CACHE_LINE ) _Atomic uint64_t ends;
} kcc_pool_block;

typedef struct kcc_pool_task
{
	kcc_task_fcn* fcn;
	void* context;
	int item_count;
	int range_count;
	kcc_pool_block* blocks; ///< borrowed: worker_count blocks of the pool's, this slot's (worker w's at w)
	atomic_int ranges_left; ///< ranges not yet run to their end
	atomic_int users;       ///< pool threads between taking the task and leaving it (taken under the mutex)
	bool active;            ///< enqueued and not yet finished (under the mutex)
} kcc_pool_task;

typedef struct kcc_pool_worker
{
	kcc_thread_pool* pool; // borrowed: the pool that holds this worker
	pthread_t thread;
	int id;          // 1 .. worker_count - 1: worker 0 is the thread that calls finish
	int64_t spin_ns; // how long this worker polls for a task before it sleeps
} kcc_pool_worker;

struct kcc_thread_pool
{
	int worker_count;
	int thread_count; // threads started
	pthread_mutex_t mutex;
	pthread_cond_t work;    // idle workers sleep here
	pthread_cond_t done;    // finish sleeps here
	atomic_uint published;  // bumped by every enqueue and by destroy: what an idle worker watches
	bool stopping;          // under the mutex, as everything below
	int sleepers;           // workers waiting on work
	int finishing;          // finish calls waiting on done
	int active_count;       // tasks enqueued and not yet finished
	kcc_pool_task tasks[KCC_THREAD_POOL_MAX_TASKS];
	kcc_pool_worker workers[]; // worker_count - 1 entries, then (line-aligned) the tasks' blocks
};

// The pool whose task the current thread is running, to name a nested enqueue or finish (its worker number would
// run two ranges at once).
static _Thread_local const kcc_thread_pool* s_running_pool = NULL;

static void kcc_pool_pause( void )
{
#if ( defined( __x86_64__ ) || defined( __i386__ ) ) && ( defined( __GNUC__ ) || defined( __clang__ ) )
	__builtin_ia32_pause();
#elif defined( __aarch64__ ) && ( defined( __GNUC__ ) || defined( __clang__ ) )
	__asm__ __volatile__( "yield" );
#endif
}

static int64_t kcc_pool_now_ns( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

// A bounded poll: `while ( condition && kcc_pool_poll_more( &poll ) )` pauses until the condition fails (true) or
// the time given to kcc_pool_poll_start has passed (false: the caller sleeps instead).
typedef struct kcc_pool_poll
{
	int64_t start;
	int64_t deadline;
	int polls;
} kcc_pool_poll;

static kcc_pool_poll kcc_pool_poll_start( int64_t duration_ns )
{
	int64_t now = kcc_pool_now_ns();
	return (kcc_pool_poll){ now, now + duration_ns, 0 };
}

static bool kcc_pool_poll_more( kcc_pool_poll* poll )
{
	kcc_pool_pause();
	poll->polls += 1;
	if ( poll->polls % KCC_POOL_POLLS_PER_CLOCK != 0 )
	{
		return true;
	}
	sched_yield();
	return kcc_pool_now_ns() < poll->deadline;
}

static void kcc_pool_run_inline( const kcc_thread_pool* pool, kcc_task_fcn* fcn, int item_count, void* context )
{
	const kcc_thread_pool* outer = s_running_pool;
	s_running_pool = pool;
	fcn( 0, item_count, 0, context );
	s_running_pool = outer;
}

static uint64_t kcc_pool_pack( int front, int end )
{
	return (uint64_t)(uint32_t)end << 32 | (uint32_t)front;
}

// The first unclaimed range of the block for its owner, the last for a thief; -1 when none is left. Relaxed: the
// task's fields were published under the mutex, and ranges_left orders what the ranges wrote.
static int kcc_pool_claim( kcc_pool_block* block, bool owner )
{
	uint64_t ends = atomic_load_explicit( &block->ends, memory_order_relaxed );
	for ( ;; )
	{
		int front = (int)(uint32_t)ends;
		int end = (int)( ends >> 32 );
		if ( front >= end )
		{
			return -1;
		}
		uint64_t claimed = owner ? kcc_pool_pack( front + 1, end ) : kcc_pool_pack( front, end - 1 );
		if ( atomic_compare_exchange_weak_explicit( &block->ends, &ends, claimed, memory_order_relaxed,
													memory_order_relaxed ) )
		{
			return owner ? front : end - 1;
		}
	}
}

static bool kcc_pool_block_empty( kcc_pool_block* block )
{
	uint64_t ends = atomic_load_explicit( &block->ends, memory_order_relaxed );
	return (int)(uint32_t)ends >= (int)( ends >> 32 );
}

// Claims ranges of the task until none is left: the worker's own block, then the others', from the block before its
// own backwards (the end of the block before borders its own). A block only shrinks, so one pass leaves every range
// claimed. Each range's end is counted with release order, so whoever sees ranges_left reach zero (acquire) also sees
// what the ranges wrote.
static void kcc_pool_run_ranges( const kcc_thread_pool* pool, kcc_pool_task* task, int worker )
{
	int workers = pool->worker_count;
	for ( int k = 0; k < workers; ++k )
	{
		kcc_pool_block* block = task->blocks + ( worker - k + workers ) % workers;
		for ( int range = kcc_pool_claim( block, k == 0 ); range >= 0; range = kcc_pool_claim( block, k == 0 ) )
		{
			int start = (int)( (int64_t)range * task->item_count / task->range_count );
			int end = (int)( (int64_t)( range + 1 ) * task->item_count / task->range_count );
			const kcc_thread_pool* outer = s_running_pool;
			s_running_pool = pool;
			task->fcn( start, end, worker, task->context );
			s_running_pool = outer;
			atomic_fetch_sub_explicit( &task->ranges_left, 1, memory_order_release );
		}
	}
}

// Under the mutex: the first active task, in slot order, with a range nobody has claimed yet.
static kcc_pool_task* kcc_pool_find_work( kcc_thread_pool* pool )
{
	int seen = 0;
	for ( int i = 0; i < KCC_THREAD_POOL_MAX_TASKS && seen < pool->active_count; ++i )
	{
		kcc_pool_task* task = pool->tasks + i;
		if ( task->active == false )
		{
			continue;
		}
		seen += 1;
		for ( int w = 0; w < pool->worker_count; ++w )
		{
			if ( kcc_pool_block_empty( task->blocks + w ) == false )
			{
				return task;
			}
		}
	}
	return NULL;
}

// Whether a range of the task is still running or a pool thread still reads its slot. Acquire: what the ranges wrote
// is seen once it is false.
static bool kcc_pool_task_running( kcc_pool_task* task )
{
	return atomic_load_explicit( &task->ranges_left, memory_order_acquire ) != 0 ||
		   atomic_load_explicit( &task->users, memory_order_acquire ) != 0;
}

static void* kcc_pool_worker_main( void* argument )
{
	kcc_pool_worker* worker = argument;
	kcc_thread_pool* pool = worker->pool;
	pthread_mutex_lock( &pool->mutex );
	while ( pool->stopping == false )
	{
		kcc_pool_task* task = kcc_pool_find_work( pool );
		if ( task != NULL )
		{
			// users keeps the slot from being finished and reused while this thread still reads it.
			atomic_fetch_add_explicit( &task->users, 1, memory_order_relaxed );
			pthread_mutex_unlock( &pool->mutex );
			kcc_pool_run_ranges( pool, task, worker->id );
			// Left before taking the mutex, so that a finish polling for the end sees it at once (release: this
			// thread's reads of the slot come before its reuse). The slot is not read again.
			bool last = atomic_fetch_sub_explicit( &task->users, 1, memory_order_release ) == 1;
			pthread_mutex_lock( &pool->mutex );
			if ( last && pool->finishing > 0 )
			{
				pthread_cond_broadcast( &pool->done );
			}
			continue;
		}
		unsigned seen = atomic_load_explicit( &pool->published, memory_order_relaxed );
		pthread_mutex_unlock( &pool->mutex );
		kcc_pool_poll poll = kcc_pool_poll_start( worker->spin_ns );
		while ( atomic_load_explicit( &pool->published, memory_order_relaxed ) == seen && kcc_pool_poll_more( &poll ) )
		{
		}
		pthread_mutex_lock( &pool->mutex );
		// Checked under the mutex that enqueue bumps it under: a task published meanwhile cannot be missed.
		while ( atomic_load_explicit( &pool->published, memory_order_relaxed ) == seen )
		{
			pool->sleepers += 1;
			pthread_cond_wait( &pool->work, &pool->mutex );
			pool->sleepers -= 1;
		}
		// A wait a full poll would have spanned keeps the full poll; a longer one halves it.
		int64_t halved = worker->spin_ns / 2 > KCC_POOL_SPIN_MIN_NS ? worker->spin_ns / 2 : KCC_POOL_SPIN_MIN_NS;
		worker->spin_ns = kcc_pool_now_ns() - poll.start <= KCC_POOL_SPIN_NS ? KCC_POOL_SPIN_NS : halved;
	}
	pthread_mutex_unlock( &pool->mutex );
	return NULL;
}

static void* kcc_pool_enqueue( kcc_task_fcn* fcn, int item_count, int min_range, void* context, void* user )
{
	kcc_thread_pool* pool = user;
	KCC_ASSERT( s_running_pool != pool, "kcc_thread_pool: enqueue called from inside one of the pool's tasks" );
	KCC_ASSERT( fcn != NULL, "kcc_thread_pool: enqueue of a NULL task" );
	KCC_ASSERT( item_count >= 0, "kcc_thread_pool: enqueue with a negative item_count" );
	if ( fcn == NULL || item_count <= 0 )
	{
		return NULL;
	}
	if ( min_range < 1 )
	{
		min_range = 1;
	}
	// Every range at least min_range items: at most item_count / min_range of them. A multiple of the worker count
	// when there are enough: each worker's home is then the same share of the items in every task, so that tasks over
	// the same items (a batch's checks, listing and moves) keep each item's memory in one core's cache.
	int range_count = item_count / min_range;
	int most = pool->worker_count * KCC_POOL_RANGES_PER_WORKER;
	range_count = range_count < most ? range_count : most;
	if ( range_count >= pool->worker_count )
	{
		range_count -= range_count % pool->worker_count;
	}
	if ( pool->worker_count == 1 || range_count <= 1 )
	{
		kcc_pool_run_inline( pool, fcn, item_count, context );
		return NULL;
	}

	pthread_mutex_lock( &pool->mutex );
	kcc_pool_task* task = NULL;
	for ( int i = 0; i < KCC_THREAD_POOL_MAX_TASKS; ++i )
	{
		if ( pool->tasks[i].active == false )
		{
			task = pool->tasks + i;
			break;
		}
	}
	if ( task == NULL )
	{
		// Every slot holds an unfinished task: this one runs here and now, as the contract's NULL handle allows.
		pthread_mutex_unlock( &pool->mutex );
		kcc_pool_run_inline( pool, fcn, item_count, context );
		return NULL;
	}
	task->fcn = fcn;
	task->context = context;
	task->item_count = item_count;
	task->range_count = range_count;
	// Worker w's home: the w-th of worker_count equal shares of the ranges (equal when range_count is a multiple).
	for ( int w = 0; w < pool->worker_count; ++w )
	{
		int front = w * range_count / pool->worker_count;
		int end = ( w + 1 ) * range_count / pool->worker_count;
		atomic_store_explicit( &task->blocks[w].ends, kcc_pool_pack( front, end ), memory_order_relaxed );
	}
	atomic_store_explicit( &task->ranges_left, range_count, memory_order_relaxed );
	task->active = true;
	pool->active_count += 1;
	atomic_fetch_add_explicit( &pool->published, 1u, memory_order_relaxed );
	if ( pool->sleepers > 0 )
	{
		pthread_cond_broadcast( &pool->work );
	}
	pthread_mutex_unlock( &pool->mutex );
	return task;
}

static void kcc_pool_finish( void* handle, void* user )
{
	kcc_thread_pool* pool = user;
	if ( handle == NULL )
	{
		return;
	}
	KCC_ASSERT( s_running_pool != pool, "kcc_thread_pool: finish called from inside one of the pool's tasks" );
	kcc_pool_task* task = handle;
	bool ours = (uintptr_t)task >= (uintptr_t)pool->tasks &&
				(uintptr_t)task < (uintptr_t)( pool->tasks + KCC_THREAD_POOL_MAX_TASKS );
	KCC_ASSERT( ours && task->active, "kcc_thread_pool: finish of a handle that is not an unfinished task of it" );
	if ( ours == false || task->active == false )
	{
		return;
	}

	// The caller works as worker 0 on its own task, then waits for the ranges the pool's threads took.
	kcc_pool_run_ranges( pool, task, 0 );
	kcc_pool_poll poll = kcc_pool_poll_start( KCC_POOL_SPIN_NS );
	while ( kcc_pool_task_running( task ) && kcc_pool_poll_more( &poll ) )
	{
	}
	pthread_mutex_lock( &pool->mutex );
	while ( kcc_pool_task_running( task ) )
	{
		pool->finishing += 1;
		pthread_cond_wait( &pool->done, &pool->mutex );
		pool->finishing -= 1;
	}
	task->active = false;
	pool->active_count -= 1;
	pthread_mutex_unlock( &pool->mutex );
}

// Stops the pool's started threads and joins them. The pool is still allocated.
static void kcc_pool_stop( kcc_thread_pool* pool )
{
	pthread_mutex_lock( &pool->mutex );
	pool->stopping = true;
	atomic_fetch_add_explicit( &pool->published, 1u, memory_order_relaxed );
	pthread_cond_broadcast( &pool->work );
	pthread_mutex_unlock( &pool->mutex );
	for ( int i = 0; i < pool->thread_count; ++i )
	{
		pthread_join( pool->workers[i].thread, NULL );
	}
	pool->thread_count = 0;
}

kcc_thread_pool* kcc_thread_pool_create( int thread_count )
{
	KCC_ASSERT( thread_count >= 1, "kcc_thread_pool_create: thread_count must be at least 1 (the calling thread)" );
	if ( thread_count < 1 )
	{
		return NULL;
	}
	// One allocation: the pool, its workers, then every slot's blocks on lines of their own (from the first line after
	// the workers: a line more is asked for, to round up into).
	size_t size = sizeof( kcc_thread_pool ) + (size_t)( thread_count - 1 ) * sizeof( kcc_pool_worker );
	size_t block_count = (size_t)KCC_THREAD_POOL_MAX_TASKS * (size_t)thread_count;
	kcc_thread_pool* pool = kcc_alloc( size + KCC_CACHE_LINE + block_count * sizeof( kcc_pool_block ) );
	if ( pool == NULL )
	{
		return NULL;
	}
	uintptr_t after = (uintptr_t)pool + size;
	kcc_pool_block* blocks = (kcc_pool_block*)( ( after + KCC_CACHE_LINE - 1 ) / KCC_CACHE_LINE * KCC_CACHE_LINE );
	pool->worker_count = thread_count;
	pool->thread_count = 0;
	pool->stopping = false;
	pool->sleepers = 0;
	pool->finishing = 0;
	pool->active_count = 0;
	atomic_init( &pool->published, 0u );
	for ( int i = 0; i < KCC_THREAD_POOL_MAX_TASKS; ++i )
	{
		kcc_pool_task* task = pool->tasks + i;
		*task = (kcc_pool_task){ .blocks = blocks + i * thread_count };
		for ( int w = 0; w < thread_count; ++w )
		{
			atomic_init( &task->blocks[w].ends, 0 );
		}
		atomic_init( &task->ranges_left, 0 );
		atomic_init( &task->users, 0 );
	}
	if ( pthread_mutex_init( &pool->mutex, NULL ) != 0 )
	{
		kcc_free( pool );
		return NULL;
	}
	if ( pthread_cond_init( &pool->work, NULL ) != 0 )
	{
		pthread_mutex_destroy( &pool->mutex );
		kcc_free( pool );
		return NULL;
	}
	if ( pthread_cond_init( &pool->done, NULL ) != 0 )
	{
		pthread_cond_destroy( &pool->work );
		pthread_mutex_destroy( &pool->mutex );
		kcc_free( pool );
		return NULL;
	}
	for ( int i = 0; i < thread_count - 1; ++i )
	{
		kcc_pool_worker* worker = pool->workers + i;
		worker->pool = pool;
		worker->id = i + 1;
		worker->spin_ns = KCC_POOL_SPIN_NS;
		if ( pthread_create( &worker->thread, NULL, kcc_pool_worker_main, worker ) != 0 )
		{
			kcc_thread_pool_destroy( pool ); // joins the threads started so far
			return NULL;
		}
		pool->thread_count += 1;
	}
	return pool;
}

void kcc_thread_pool_destroy( kcc_thread_pool* pool )
{
	if ( pool == NULL )
	{
		return;
	}
	KCC_ASSERT( s_running_pool != pool, "kcc_thread_pool_destroy: called from inside one of the pool's tasks" );
	KCC_ASSERT( pool->active_count == 0, "kcc_thread_pool_destroy: a task was enqueued and never finished" );
	// Release builds finish what is left, so no thread is stopped halfway through a task.
	for ( int i = 0; i < KCC_THREAD_POOL_MAX_TASKS; ++i )
	{
		if ( pool->tasks[i].active )
		{
			kcc_pool_finish( pool->tasks + i, pool );
		}
	}
	kcc_pool_stop( pool );
	pthread_cond_destroy( &pool->done );
	pthread_cond_destroy( &pool->work );
	pthread_mutex_destroy( &pool->mutex );
	kcc_free( pool );
}

static void* kcc_serial_enqueue( kcc_task_fcn* fcn, int item_count, int min_range, void* context, void* user )
{
	(void)min_range;
	(void)user;
	if ( fcn != NULL && item_count > 0 )
	{
		fcn( 0, item_count, 0, context );
	}
	return NULL;
}

static void kcc_serial_finish( void* handle, void* user )
{
	(void)handle;
	(void)user;
}

kcc_task_system kcc_thread_pool_task_system( kcc_thread_pool* pool )
{
	KCC_ASSERT( pool != NULL, "kcc_thread_pool_task_system: pool is NULL (the calling thread alone is used)" );
	if ( pool == NULL )
	{
		return (kcc_task_system){ .worker_count = 1, .enqueue = kcc_serial_enqueue, .finish = kcc_serial_finish };
	}
	return (kcc_task_system){
		.worker_count = pool->worker_count, .enqueue = kcc_pool_enqueue, .finish = kcc_pool_finish, .user = pool };
}

// SPDX-License-Identifier: MIT
// kcc_thread_pool as a kcc_task_system: every item visited exactly once in ranges of at least min_range (for every
// count of ranges a task is cut into), worker numbers in range and never running two ranges at once, each worker's home
// share of a task run by that worker when every worker takes part (the same items frame after frame), a blocked
// worker's share run by the others, several tasks in flight, thousands of tiny tasks with sleeping workers woken again,
// the inline cases (one worker, a task too small to split, every slot taken), what a task wrote seen after finish, no
// allocation per task, an idle pool asleep (also between frames 2 ms apart), and create / destroy: in a loop, idle,
// with bad arguments, out of memory, and a thread that cannot be started (nothing left behind). CI also runs it under
// ThreadSanitizer (`ctest -L threads`), which names any race the checks below cannot see.
#define _POSIX_C_SOURCE 200809L // nanosleep, pthreads under -std=c11

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "kcc/controller.h"
#include "alloc_count.h"
#include "assert_recorder.h"

// ---------------------------------------------------------------------------------------------------------------
// Thread creation and joins, counted and made to fail on demand (linked with -Wl,--wrap=pthread_create,...).

int __real_pthread_create( pthread_t* thread, const pthread_attr_t* attr, void* ( *start )( void* ), void* arg );
int __real_pthread_join( pthread_t thread, void** result );
int __wrap_pthread_create( pthread_t* thread, const pthread_attr_t* attr, void* ( *start )( void* ), void* arg );
int __wrap_pthread_join( pthread_t thread, void** result );

static int s_create_calls = 0;
static int s_fail_create_at = -1; // the call (0-based) that fails; -1: none
static int s_threads_started = 0;
static int s_threads_joined = 0;

int __wrap_pthread_create( pthread_t* thread, const pthread_attr_t* attr, void* ( *start )( void* ), void* arg )
{
	if ( s_create_calls++ == s_fail_create_at )
	{
		return EAGAIN;
	}
	int status = __real_pthread_create( thread, attr, start, arg );
	s_threads_started += status == 0 ? 1 : 0;
	return status;
}

int __wrap_pthread_join( pthread_t thread, void** result )
{
	s_threads_joined += 1;
	return __real_pthread_join( thread, result );
}

// ---------------------------------------------------------------------------------------------------------------
// A task that records what it was given. Runs on any thread: it never calls CMocka, it counts what is wrong.

#define MAX_ITEMS 5000
#define MAX_RANGES 1024
#define MAX_WORKERS 16

typedef struct visit_range
{
	int start;
	int end;
	int worker;
	bool on_caller;
} visit_range;

typedef struct visit_log
{
	pthread_t caller;
	int worker_count;
	atomic_int counts[MAX_ITEMS];
	atomic_int busy[MAX_WORKERS]; // ranges a worker number is running right now
	atomic_int range_count;
	atomic_int bad_worker;     // a worker number outside 0 .. worker_count - 1
	atomic_int worker_overlap; // a worker number running two ranges at once
	visit_range ranges[MAX_RANGES];
	int spin; // busy work per item, to let ranges overlap in time
} visit_log;

static visit_log s_log;
static visit_log s_logs[KCC_THREAD_POOL_MAX_TASKS + 4];

static void reset_log( visit_log* log, int worker_count )
{
	log->caller = pthread_self();
	log->worker_count = worker_count;
	for ( int i = 0; i < MAX_ITEMS; ++i )
	{
		atomic_store( &log->counts[i], 0 );
	}
	for ( int i = 0; i < MAX_WORKERS; ++i )
	{
		atomic_store( &log->busy[i], 0 );
	}
	atomic_store( &log->range_count, 0 );
	atomic_store( &log->bad_worker, 0 );
	atomic_store( &log->worker_overlap, 0 );
	log->spin = 0;
}

static void visit_task( int start, int end, int worker, void* context )
{
	visit_log* log = context;
	if ( worker < 0 || worker >= log->worker_count )
	{
		atomic_fetch_add( &log->bad_worker, 1 );
		return;
	}
	if ( atomic_fetch_add( &log->busy[worker], 1 ) != 0 )
	{
		atomic_fetch_add( &log->worker_overlap, 1 );
	}
	for ( int i = start; i < end; ++i )
	{
		atomic_fetch_add( &log->counts[i], 1 );
		for ( volatile int k = 0; k < log->spin; ++k )
		{
		}
	}
	int slot = atomic_fetch_add( &log->range_count, 1 );
	if ( slot < MAX_RANGES )
	{
		log->ranges[slot] = (visit_range){ start, end, worker, pthread_equal( pthread_self(), log->caller ) != 0 };
	}
	atomic_fetch_sub( &log->busy[worker], 1 );
}

// Every item exactly once, ranges of at least min_range (or the whole count when it is smaller), sane workers.
// Visits of the first item_count items so far (read while the task runs).
static int visited( visit_log* log, int item_count )
{
	int done = 0;
	for ( int i = 0; i < item_count; ++i )
	{
		done += atomic_load( &log->counts[i] );
	}
	return done;
}

static void check_log( visit_log* log, int item_count, int min_range )
{
	for ( int i = 0; i < item_count; ++i )
	{
		assert_int_equal( atomic_load( &log->counts[i] ), 1 );
	}
	assert_int_equal( atomic_load( &log->bad_worker ), 0 );
	assert_int_equal( atomic_load( &log->worker_overlap ), 0 );
	int range_count = atomic_load( &log->range_count );
	assert_true( range_count <= MAX_RANGES );
	int smallest = min_range < 1 ? 1 : min_range;
	smallest = smallest < item_count ? smallest : item_count;
	int total = 0;
	for ( int r = 0; r < range_count; ++r )
	{
		visit_range range = log->ranges[r];
		assert_true( range.end - range.start >= smallest );
		total += range.end - range.start;
	}
	assert_int_equal( total, item_count );
}

static void test_every_item_once( void** state )
{
	(void)state;
	const int workers[] = { 1, 2, 3, 4, 8 };
	const int items[] = { 0, 1, 2, 3, 5, 16, 17, 100, 1000, 4099 };
	const int min_ranges[] = { 0, 1, 2, 3, 7, 64, 5000 };
	for ( size_t w = 0; w < sizeof( workers ) / sizeof( workers[0] ); ++w )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( workers[w] );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		assert_int_equal( tasks.worker_count, workers[w] );
		for ( size_t i = 0; i < sizeof( items ) / sizeof( items[0] ); ++i )
		{
			for ( size_t m = 0; m < sizeof( min_ranges ) / sizeof( min_ranges[0] ); ++m )
			{
				int item_count = items[i];
				int min_range = min_ranges[m];
				reset_log( &s_log, workers[w] );
				void* handle = tasks.enqueue( visit_task, item_count, min_range, &s_log, tasks.user );
				int splittable = item_count / ( min_range < 1 ? 1 : min_range );
				if ( workers[w] == 1 || splittable < 2 )
				{
					// Run at once, on the caller, in one range (none for no items).
					assert_null( handle );
					assert_int_equal( atomic_load( &s_log.range_count ), item_count > 0 ? 1 : 0 );
					if ( item_count > 0 )
					{
						assert_true( s_log.ranges[0].on_caller );
						assert_int_equal( s_log.ranges[0].worker, 0 );
					}
				}
				else
				{
					assert_non_null( handle );
				}
				tasks.finish( handle, tasks.user );
				check_log( &s_log, item_count, min_range );
				if ( workers[w] > 1 && splittable >= 2 )
				{
					// Split for every worker to get a range, as far as min_range allows.
					int expected = splittable < workers[w] ? splittable : workers[w];
					assert_true( atomic_load( &s_log.range_count ) >= expected );
				}
			}
		}
		kcc_thread_pool_destroy( pool );
	}
}

// Slow ranges on more threads than cores, several tasks in flight: a worker number never runs two ranges at once.
static void test_worker_runs_one_range_at_a_time( void** state )
{
	(void)state;
	for ( int n = 2; n <= 5; ++n )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		for ( int round = 0; round < 20; ++round )
		{
			void* handles[4];
			for ( int t = 0; t < 4; ++t )
			{
				reset_log( &s_logs[t], n );
				s_logs[t].spin = 200;
				handles[t] = tasks.enqueue( visit_task, 256, 1, &s_logs[t], tasks.user );
				assert_non_null( handles[t] );
			}
			for ( int t = 3; t >= 0; --t )
			{
				tasks.finish( handles[t], tasks.user );
				check_log( &s_logs[t], 256, 1 );
			}
		}
		kcc_thread_pool_destroy( pool );
	}
}

// ---------------------------------------------------------------------------------------------------------------

static void sum_task( int start, int end, int worker, void* context )
{
	(void)worker;
	atomic_llong* sum = context;
	long long part = 0;
	for ( int i = start; i < end; ++i )
	{
		part += i + 1;
	}
	atomic_fetch_add( sum, part );
}

static void sleep_microseconds( long microseconds )
{
	struct timespec t = { microseconds / 1000000, ( microseconds % 1000000 ) * 1000 };
	nanosleep( &t, NULL );
}

static double seconds_now( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

// A task of worker_count ranges that all wait for each other: it ends only when every worker took one, so a worker
// left asleep (a lost wake-up) shows as a timeout instead of the caller quietly running every range itself.
typedef struct rendezvous
{
	int expected;
	atomic_int arrived;
	atomic_int timed_out;
} rendezvous;

static void rendezvous_task( int start, int end, int worker, void* context )
{
	(void)worker;
	rendezvous* meet = context;
	atomic_fetch_add( &meet->arrived, end - start );
	double deadline = seconds_now() + 10.0;
	while ( atomic_load( &meet->arrived ) < meet->expected && atomic_load( &meet->timed_out ) == 0 )
	{
		if ( seconds_now() > deadline )
		{
			atomic_store( &meet->timed_out, 1 );
		}
		sched_yield();
	}
}

// 10,000 tiny tasks back to back, with pauses long enough for the workers to fall asleep: no deadlock, no lost
// wake-up (every tenth task needs every worker at once), no lost item.
static void test_many_small_tasks( void** state )
{
	(void)state;
	for ( int n = 2; n <= 3; ++n )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		for ( int t = 0; t < 10000; ++t )
		{
			if ( t % 50 == 0 )
			{
				sleep_microseconds( 300 );
			}
			if ( t % 10 == 0 )
			{
				rendezvous meet = { .expected = n };
				atomic_init( &meet.arrived, 0 );
				atomic_init( &meet.timed_out, 0 );
				tasks.finish( tasks.enqueue( rendezvous_task, n, 1, &meet, tasks.user ), tasks.user );
				assert_int_equal( atomic_load( &meet.arrived ), n );
				if ( atomic_load( &meet.timed_out ) != 0 )
				{
					fail_msg( "task %d: the %d workers did not all take a range within 10 s", t, n );
				}
				continue;
			}
			int item_count = 2 + t % 8;
			atomic_llong sum;
			atomic_init( &sum, 0 );
			tasks.finish( tasks.enqueue( sum_task, item_count, 1, &sum, tasks.user ), tasks.user );
			assert_int_equal( atomic_load( &sum ), (long long)item_count * ( item_count + 1 ) / 2 );
		}
		kcc_thread_pool_destroy( pool );
	}
}

// Every count of ranges a task can be cut into on 2 .. 8 workers, blocks of unequal sizes included: every item once.
static void test_every_range_count( void** state )
{
	(void)state;
	for ( int n = 2; n <= 8; ++n )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		for ( int ranges = 2; ranges <= 4 * n + 1; ++ranges )
		{
			for ( int extra = 0; extra < 3; ++extra )
			{
				// item_count / min_range = ranges: that many ranges, as far as the pool cuts that many.
				int item_count = 3 * ranges + extra;
				reset_log( &s_log, n );
				s_log.spin = extra == 2 ? 50 : 0;
				void* handle = tasks.enqueue( visit_task, item_count, 3, &s_log, tasks.user );
				assert_non_null( handle );
				tasks.finish( handle, tasks.user );
				check_log( &s_log, item_count, 3 );
			}
		}
		kcc_thread_pool_destroy( pool );
	}
}

// A task whose ranges each wait, before they return, until every worker has begun as many ranges as the one waiting
// (its round): no worker can run out of its own ranges before every other has claimed its last, so none steals, and
// each worker runs exactly its home share. The shares are the worker_count contiguous parts of the items, in worker
// order (worker w: items [w * item_count / worker_count, (w + 1) * item_count / worker_count)), also when item_count /
// min_range is not a multiple of the worker count (the pool then cuts fewer ranges). A worker left asleep shows as a
// timeout.
#define LOCKSTEP_ROUNDS 2

typedef struct lockstep
{
	int workers;
	int writer[MAX_ITEMS];
	atomic_int begun[MAX_WORKERS];         // ranges each worker has begun
	atomic_int round[LOCKSTEP_ROUNDS + 1]; // workers that began their r-th range, at r - 1
	atomic_int timed_out;
	atomic_int too_many; // a worker began more than LOCKSTEP_ROUNDS ranges
} lockstep;

static void lockstep_task( int start, int end, int worker, void* context )
{
	lockstep* step = context;
	for ( int i = start; i < end; ++i )
	{
		step->writer[i] = worker;
	}
	int round = atomic_fetch_add( &step->begun[worker], 1 );
	if ( round >= LOCKSTEP_ROUNDS )
	{
		atomic_fetch_add( &step->too_many, 1 );
		return;
	}
	atomic_fetch_add( &step->round[round], 1 );
	double deadline = seconds_now() + 10.0;
	while ( atomic_load( &step->round[round] ) < step->workers && atomic_load( &step->timed_out ) == 0 )
	{
		if ( seconds_now() > deadline )
		{
			atomic_store( &step->timed_out, 1 );
		}
		sched_yield();
	}
}

static void test_each_worker_runs_its_home_share( void** state )
{
	(void)state;
	static lockstep step;
	for ( int n = 2; n <= 4; ++n )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		for ( int frame = 0; frame < 20; ++frame )
		{
			// LOCKSTEP_ROUNDS ranges a worker: item_count / min_range of them, or every other frame 2.5 a worker, cut
			// to 2 (a multiple of the worker count).
			int min_range = frame % 2 == 0 ? 25 : 10;
			int item_count = frame % 2 == 0 ? LOCKSTEP_ROUNDS * n * min_range : 25 * n;
			step.workers = n;
			for ( int w = 0; w < MAX_WORKERS; ++w )
			{
				atomic_store( &step.begun[w], 0 );
			}
			for ( int r = 0; r <= LOCKSTEP_ROUNDS; ++r )
			{
				atomic_store( &step.round[r], 0 );
			}
			atomic_store( &step.timed_out, 0 );
			atomic_store( &step.too_many, 0 );
			for ( int i = 0; i < item_count; ++i )
			{
				step.writer[i] = -1;
			}
			tasks.finish( tasks.enqueue( lockstep_task, item_count, min_range, &step, tasks.user ), tasks.user );
			if ( atomic_load( &step.timed_out ) != 0 )
			{
				fail_msg( "%d workers, frame %d: a round of ranges did not see every worker within 10 s", n, frame );
			}
			assert_int_equal( atomic_load( &step.too_many ), 0 );
			for ( int w = 0; w < n; ++w )
			{
				assert_int_equal( atomic_load( &step.begun[w] ), LOCKSTEP_ROUNDS );
			}
			for ( int i = 0; i < item_count; ++i )
			{
				int home = (int)( (int64_t)i * n / item_count );
				if ( step.writer[i] != home )
				{
					fail_msg( "%d workers, frame %d: item %d run by worker %d, not by its home worker %d", n, frame, i,
							  step.writer[i], home );
				}
			}
		}
		kcc_thread_pool_destroy( pool );
	}
}

// The caller (worker 0) enqueues and does not call finish until the pool's threads have run every item: they took
// the caller's home share too. Then finish has nothing left to run.
static void test_others_run_a_late_callers_share( void** state )
{
	(void)state;
	for ( int n = 2; n <= 4; ++n )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		for ( int frame = 0; frame < 10; ++frame )
		{
			int item_count = 1000;
			reset_log( &s_log, n );
			void* handle = tasks.enqueue( visit_task, item_count, 10, &s_log, tasks.user );
			assert_non_null( handle );
			double deadline = seconds_now() + 10.0;
			int done = 0;
			while ( ( done = visited( &s_log, item_count ) ) < item_count && seconds_now() < deadline )
			{
				sched_yield();
			}
			if ( done < item_count )
			{
				fail_msg( "%d workers: the pool's threads ran %d of %d items within 10 s", n, done, item_count );
			}
			int ranges = atomic_load( &s_log.range_count );
			tasks.finish( handle, tasks.user );
			assert_int_equal( atomic_load( &s_log.range_count ), ranges );
			check_log( &s_log, item_count, 10 );
			for ( int r = 0; r < ranges; ++r )
			{
				assert_true( s_log.ranges[r].worker != 0 );
				assert_false( s_log.ranges[r].on_caller );
			}
		}
		kcc_thread_pool_destroy( pool );
	}
}

// The first range that a pool thread (worker 1) runs waits until every other item is done: the rest of its home
// share is run by the other workers, and it runs no other range.
typedef struct blocked_worker
{
	visit_log* log;
	int item_count;
	atomic_int timed_out;
} blocked_worker;

static void blocked_worker_task( int start, int end, int worker, void* context )
{
	blocked_worker* blocked = context;
	visit_task( start, end, worker, blocked->log );
	if ( worker != 1 )
	{
		return;
	}
	double deadline = seconds_now() + 10.0;
	for ( ;; )
	{
		if ( visited( blocked->log, blocked->item_count ) == blocked->item_count )
		{
			return;
		}
		if ( seconds_now() > deadline )
		{
			atomic_store( &blocked->timed_out, 1 );
			return;
		}
		sched_yield();
	}
}

static void test_a_blocked_workers_share_is_stolen( void** state )
{
	(void)state;
	for ( int n = 2; n <= 4; ++n )
	{
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		kcc_task_system tasks = kcc_thread_pool_task_system( pool );
		for ( int frame = 0; frame < 10; ++frame )
		{
			blocked_worker blocked = { .log = &s_log, .item_count = 1000 };
			atomic_init( &blocked.timed_out, 0 );
			reset_log( &s_log, n );
			tasks.finish( tasks.enqueue( blocked_worker_task, blocked.item_count, 10, &blocked, tasks.user ),
						  tasks.user );
			if ( atomic_load( &blocked.timed_out ) != 0 )
			{
				fail_msg( "%d workers: the other workers left items of the blocked one undone for 10 s", n );
			}
			check_log( &s_log, blocked.item_count, 10 );
			// Worker 1 held its first range to the end: it cannot have run a second one.
			int ranges = atomic_load( &s_log.range_count );
			int by_worker_1 = 0;
			for ( int r = 0; r < ranges; ++r )
			{
				by_worker_1 += s_log.ranges[r].worker == 1 ? 1 : 0;
			}
			assert_true( by_worker_1 <= 1 );
			assert_true( ranges >= n );
		}
		kcc_thread_pool_destroy( pool );
	}
}

// Every slot taken: the tasks past KCC_THREAD_POOL_MAX_TASKS run at once (handle NULL); all finish, in any order.
static void test_more_tasks_than_slots( void** state )
{
	(void)state;
	enum
	{
		TASKS = KCC_THREAD_POOL_MAX_TASKS + 4
	};
	kcc_thread_pool* pool = kcc_thread_pool_create( 3 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	for ( int round = 0; round < 3; ++round )
	{
		void* handles[TASKS];
		int inline_count = 0;
		for ( int t = 0; t < TASKS; ++t )
		{
			reset_log( &s_logs[t], 3 );
			handles[t] = tasks.enqueue( visit_task, 40, 2, &s_logs[t], tasks.user );
			inline_count += handles[t] == NULL ? 1 : 0;
		}
		assert_int_equal( inline_count, TASKS - KCC_THREAD_POOL_MAX_TASKS );
		for ( int t = 0; t < TASKS; ++t )
		{
			int which = ( t * 7 + round ) % TASKS; // a scrambled order: 7 and TASKS are coprime
			tasks.finish( handles[which], tasks.user );
			handles[which] = NULL;
			check_log( &s_logs[which], 40, 2 );
		}
	}
	kcc_thread_pool_destroy( pool );
}

static void test_one_worker_runs_inline( void** state )
{
	(void)state;
	kcc_thread_pool* pool = kcc_thread_pool_create( 1 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	assert_int_equal( tasks.worker_count, 1 );
	reset_log( &s_log, 1 );
	void* handle = tasks.enqueue( visit_task, 3000, 1, &s_log, tasks.user );
	assert_null( handle );
	// Done before enqueue returned, in one range on this thread.
	check_log( &s_log, 3000, 1 );
	assert_int_equal( atomic_load( &s_log.range_count ), 1 );
	assert_true( s_log.ranges[0].on_caller );
	assert_int_equal( s_log.ranges[0].worker, 0 );
	tasks.finish( handle, tasks.user );
	kcc_thread_pool_destroy( pool );
	assert_int_equal( s_threads_started, s_threads_joined );
}

// ---------------------------------------------------------------------------------------------------------------

typedef struct plain_output
{
	int round;
	double values[MAX_ITEMS];
	int writer[MAX_ITEMS];
} plain_output;

static plain_output s_output;

static void write_plain_task( int start, int end, int worker, void* context )
{
	plain_output* out = context;
	for ( int i = start; i < end; ++i )
	{
		out->values[i] = out->round * 10000.0 + i * 0.5;
		out->writer[i] = worker;
	}
}

// Plain (non-atomic) writes of the task are read after finish: finish is the synchronisation.
static void test_plain_writes_seen_after_finish( void** state )
{
	(void)state;
	kcc_thread_pool* pool = kcc_thread_pool_create( 4 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	for ( int round = 1; round <= 200; ++round )
	{
		s_output.round = round;
		void* handle = tasks.enqueue( write_plain_task, MAX_ITEMS, 16, &s_output, tasks.user );
		assert_non_null( handle );
		tasks.finish( handle, tasks.user );
		for ( int i = 0; i < MAX_ITEMS; ++i )
		{
			if ( s_output.values[i] != round * 10000.0 + i * 0.5 || s_output.writer[i] < 0 || s_output.writer[i] >= 4 )
			{
				fail_msg( "round %d, item %d: %g written by worker %d", round, i, s_output.values[i],
						  s_output.writer[i] );
			}
		}
	}
	kcc_thread_pool_destroy( pool );
}

// ---------------------------------------------------------------------------------------------------------------

static int s_hook_allocs = 0;
static int s_hook_frees = 0;
static int s_hook_fail = 0;

static void* counting_alloc( size_t size, void* user )
{
	(void)user;
	if ( s_hook_fail )
	{
		return NULL;
	}
	s_hook_allocs += 1;
	return malloc( size );
}

static void counting_free( void* memory, void* user )
{
	(void)user;
	s_hook_frees += 1;
	free( memory );
}

// One allocation at create, through the hooks; none per task; one free at destroy.
static void test_allocates_once( void** state )
{
	(void)state;
	s_hook_allocs = 0;
	s_hook_frees = 0;
	kcc_set_allocator( counting_alloc, counting_free, NULL );
	kcc_thread_pool* pool = kcc_thread_pool_create( 3 );
	assert_non_null( pool );
	assert_int_equal( s_hook_allocs, 1 );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	uint64_t before = kcc_test_allocation_count();
	for ( int t = 0; t < 1000; ++t )
	{
		atomic_llong sum;
		atomic_init( &sum, 0 );
		void* handles[3];
		for ( int k = 0; k < 3; ++k )
		{
			handles[k] = tasks.enqueue( sum_task, 100, 5, &sum, tasks.user );
		}
		for ( int k = 0; k < 3; ++k )
		{
			tasks.finish( handles[k], tasks.user );
		}
		assert_int_equal( atomic_load( &sum ), 3 * 5050 );
	}
	assert_int_equal( kcc_test_allocation_count(), before );
	assert_int_equal( s_hook_allocs, 1 );
	kcc_thread_pool_destroy( pool );
	assert_int_equal( s_hook_frees, 1 );
	kcc_set_allocator( NULL, NULL, NULL );
}

static void test_create_destroy_loop( void** state )
{
	(void)state;
	for ( int i = 0; i < 200; ++i )
	{
		int n = 1 + i % 5;
		kcc_thread_pool* pool = kcc_thread_pool_create( n );
		assert_non_null( pool );
		if ( i % 2 == 1 )
		{
			// Half of them destroyed right away, maybe before their threads have started waiting.
			kcc_task_system tasks = kcc_thread_pool_task_system( pool );
			atomic_llong sum;
			atomic_init( &sum, 0 );
			tasks.finish( tasks.enqueue( sum_task, 64, 1, &sum, tasks.user ), tasks.user );
			assert_int_equal( atomic_load( &sum ), 64 * 65 / 2 );
		}
		kcc_thread_pool_destroy( pool );
	}
	assert_int_equal( s_threads_started, s_threads_joined );
	kcc_thread_pool_destroy( NULL );
}

static double process_cpu_seconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_PROCESS_CPUTIME_ID, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

// An idle pool sleeps: its three threads use next to no CPU over 200 ms (spinning ones would use most of it), and
// threads long asleep on their condition variable wake up to stop.
static void test_idle_pool_sleeps( void** state )
{
	(void)state;
	int started = s_threads_started;
	kcc_thread_pool* pool = kcc_thread_pool_create( 4 );
	assert_non_null( pool );
	assert_int_equal( s_threads_started - started, 3 );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	atomic_llong sum;
	atomic_init( &sum, 0 );
	tasks.finish( tasks.enqueue( sum_task, 100, 1, &sum, tasks.user ), tasks.user );
	sleep_microseconds( 20000 );
	double cpu = process_cpu_seconds();
	sleep_microseconds( 200000 );
	cpu = process_cpu_seconds() - cpu;
	if ( cpu > 0.05 )
	{
		fail_msg( "an idle pool used %.0f ms of CPU in 200 ms", cpu * 1000.0 );
	}
	kcc_thread_pool_destroy( pool );
	assert_int_equal( s_threads_started, s_threads_joined );
}

static double thread_cpu_seconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_THREAD_CPUTIME_ID, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

// Frames of a game: a task, then 2 ms of other work (here a sleep), 100 times. The pool's threads poll for the next
// task for a while after each one, but a thread whose tasks keep coming far apart soon polls only briefly and sleeps:
// the pool uses a small part of each frame, where polling for a fixed time (or a fixed count of polls, that a fast
// machine runs in milliseconds) would cost every gap a poll.
static void test_pool_sleeps_between_frames( void** state )
{
	(void)state;
	enum
	{
		THREADS = 3,
		FRAMES = 100
	};
	kcc_thread_pool* pool = kcc_thread_pool_create( THREADS );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	double wall = seconds_now();
	double process = process_cpu_seconds();
	double caller = thread_cpu_seconds();
	for ( int frame = 0; frame < FRAMES; ++frame )
	{
		atomic_llong sum;
		atomic_init( &sum, 0 );
		tasks.finish( tasks.enqueue( sum_task, 64, 1, &sum, tasks.user ), tasks.user );
		assert_int_equal( atomic_load( &sum ), 64 * 65 / 2 );
		sleep_microseconds( 2000 );
	}
	wall = seconds_now() - wall;
	// The CPU the pool's own threads used: the process's less this thread's.
	double pool_cpu = ( process_cpu_seconds() - process ) - ( thread_cpu_seconds() - caller );
	double share = pool_cpu / ( wall * ( THREADS - 1 ) );
	if ( share > 0.1 )
	{
		fail_msg( "the pool's threads were busy %.0f%% of %d frames of 2 ms (%.1f ms of CPU)", 100.0 * share, FRAMES,
				  1000.0 * pool_cpu );
	}
	kcc_thread_pool_destroy( pool );
}

// ---------------------------------------------------------------------------------------------------------------
// Bad use: a clear assert message, and a safe result.

static void test_create_rejects_no_worker( void** state )
{
	(void)state;
	assert_null( kcc_thread_pool_create( 0 ) );
	expect_message( "kcc_thread_pool_create", "at least 1" );
	reset_asserts();
	assert_null( kcc_thread_pool_create( -3 ) );
	expect_message( "kcc_thread_pool_create", "at least 1" );
}

// A thread that cannot be started: NULL, the threads already started joined, the memory freed.
static void test_create_thread_failure_leaves_nothing( void** state )
{
	(void)state;
	s_hook_allocs = 0;
	s_hook_frees = 0;
	kcc_set_allocator( counting_alloc, counting_free, NULL );
	for ( int fail = 0; fail < 4; ++fail )
	{
		s_create_calls = 0;
		s_fail_create_at = fail;
		int started = s_threads_started;
		assert_null( kcc_thread_pool_create( 5 ) );
		assert_int_equal( s_threads_started - started, fail );
		assert_int_equal( s_threads_started, s_threads_joined );
		assert_int_equal( s_hook_allocs, s_hook_frees );
	}
	s_fail_create_at = -1;
	s_hook_fail = 1;
	assert_null( kcc_thread_pool_create( 3 ) );
	s_hook_fail = 0;
	kcc_set_allocator( NULL, NULL, NULL );
	assert_int_equal( s_hook_allocs, s_hook_frees );
	assert_int_equal( s_threads_started, s_threads_joined );
}

static void test_task_system_of_null_is_serial( void** state )
{
	(void)state;
	kcc_task_system tasks = kcc_thread_pool_task_system( NULL );
	expect_message( "kcc_thread_pool_task_system", "NULL" );
	assert_int_equal( tasks.worker_count, 1 );
	reset_log( &s_log, 1 );
	void* handle = tasks.enqueue( visit_task, 50, 1, &s_log, tasks.user );
	assert_null( handle );
	tasks.finish( handle, tasks.user );
	check_log( &s_log, 50, 1 );
}

static void nested_enqueue_task( int start, int end, int worker, void* context )
{
	(void)start;
	(void)end;
	(void)worker;
	kcc_task_system* tasks = context;
	tasks->finish( tasks->enqueue( sum_task, 0, 1, NULL, tasks->user ), tasks->user );
}

// One worker runs the task on the caller, so the nested call is on the test's thread: its assert is recorded here.
static void test_nested_enqueue_is_named( void** state )
{
	(void)state;
	kcc_thread_pool* pool = kcc_thread_pool_create( 1 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	tasks.finish( tasks.enqueue( nested_enqueue_task, 1, 1, &tasks, tasks.user ), tasks.user );
	expect_message( "enqueue", "inside one of the pool's tasks" );
	kcc_thread_pool_destroy( pool );
}

static void test_finish_of_a_foreign_handle_is_named( void** state )
{
	(void)state;
	kcc_thread_pool* pool = kcc_thread_pool_create( 2 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	int not_a_task = 0;
	tasks.finish( &not_a_task, tasks.user );
	expect_message( "finish", "not an unfinished task" );
	reset_asserts();
	reset_log( &s_log, 2 );
	void* handle = tasks.enqueue( visit_task, 100, 1, &s_log, tasks.user );
	assert_non_null( handle );
	tasks.finish( handle, tasks.user );
	assert_int_equal( s_assert_count, 0 );
	tasks.finish( handle, tasks.user ); // twice
	expect_message( "finish", "not an unfinished task" );
	check_log( &s_log, 100, 1 );
	kcc_thread_pool_destroy( pool );
}

// Destroy with a task never finished: named, and the task still runs to its end before the threads stop.
static void test_destroy_finishes_a_pending_task( void** state )
{
	(void)state;
	kcc_thread_pool* pool = kcc_thread_pool_create( 3 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	reset_log( &s_log, 3 );
	s_log.spin = 100;
	assert_non_null( tasks.enqueue( visit_task, 2000, 10, &s_log, tasks.user ) );
	kcc_thread_pool_destroy( pool );
	expect_message( "kcc_thread_pool_destroy", "never finished" );
	check_log( &s_log, 2000, 10 );
	assert_int_equal( s_threads_started, s_threads_joined );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup( test_every_item_once, reset_recorder ),
		cmocka_unit_test_setup( test_worker_runs_one_range_at_a_time, reset_recorder ),
		cmocka_unit_test_setup( test_many_small_tasks, reset_recorder ),
		cmocka_unit_test_setup( test_every_range_count, reset_recorder ),
		cmocka_unit_test_setup( test_each_worker_runs_its_home_share, reset_recorder ),
		cmocka_unit_test_setup( test_others_run_a_late_callers_share, reset_recorder ),
		cmocka_unit_test_setup( test_a_blocked_workers_share_is_stolen, reset_recorder ),
		cmocka_unit_test_setup( test_more_tasks_than_slots, reset_recorder ),
		cmocka_unit_test_setup( test_one_worker_runs_inline, reset_recorder ),
		cmocka_unit_test_setup( test_plain_writes_seen_after_finish, reset_recorder ),
		cmocka_unit_test_setup( test_allocates_once, reset_recorder ),
		cmocka_unit_test_setup( test_create_destroy_loop, reset_recorder ),
		cmocka_unit_test_setup( test_idle_pool_sleeps, reset_recorder ),
		cmocka_unit_test_setup( test_pool_sleeps_between_frames, reset_recorder ),
		cmocka_unit_test_setup( test_create_rejects_no_worker, reset_recorder ),
		cmocka_unit_test_setup( test_create_thread_failure_leaves_nothing, reset_recorder ),
		cmocka_unit_test_setup( test_task_system_of_null_is_serial, reset_recorder ),
		cmocka_unit_test_setup( test_nested_enqueue_is_named, reset_recorder ),
		cmocka_unit_test_setup( test_finish_of_a_foreign_handle_is_named, reset_recorder ),
		cmocka_unit_test_setup( test_destroy_finishes_a_pending_task, reset_recorder ),
	};
	return cmocka_run_group_tests( tests, install_recorder, NULL );
}

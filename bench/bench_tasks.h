// SPDX-License-Identifier: MIT
// Task systems for kcc_move_and_slide_batch in the benchmarks and the batch's tests: kcc_thread_pool, and a small
// pthread pool of our own that the tests run as a second scheduler (its ranges go to whichever worker claims them
// first, as a game's job system might).
//
//   bench_tasks t;
//   if ( bench_tasks_create( &t, 4, BENCH_TASKS_LIBRARY ) ) { batch( ..., &t.system ); bench_tasks_destroy( &t ); }
//
// Every helper is static inline so that each executable takes only what it uses.
#pragma once

#include "kcc/controller.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_POOL_MAX_WORKERS 64
#define BENCH_POOL_MAX_JOBS 16

// One enqueued task: its items are claimed in ranges of `range` by whichever worker comes first.
typedef struct bench_pool_job
{
	kcc_task_fcn* task;
	void* context;
	int item_count;
	int range;
	int next; // first item not claimed yet
	int done; // items finished
	bool in_use;
} bench_pool_job;

typedef struct bench_pool
{
	int worker_count; // the calling thread is worker 0 (it works in finish); the pool's threads are 1 ..
	int thread_count; // threads started
	pthread_t threads[BENCH_POOL_MAX_WORKERS];
	int indices[BENCH_POOL_MAX_WORKERS];
	pthread_mutex_t mutex;
	pthread_cond_t work; // a job was enqueued, or stop
	pthread_cond_t done; // a job finished
	bench_pool_job jobs[BENCH_POOL_MAX_JOBS];
	bool stop;
} bench_pool;

typedef struct bench_pool_thread_arg
{
	bench_pool* pool;
	int worker;
} bench_pool_thread_arg;

// With the mutex held: claims the next range of job (false when all of it is claimed), runs it unlocked.
static inline bool bench_pool_run_range( bench_pool* pool, bench_pool_job* job, int worker )
{
	if ( job->in_use == false || job->next >= job->item_count )
	{
		return false;
	}
	int start = job->next;
	int end = start + job->range < job->item_count ? start + job->range : job->item_count;
	job->next = end;
	kcc_task_fcn* task = job->task;
	void* context = job->context;
	pthread_mutex_unlock( &pool->mutex );
	task( start, end, worker, context );
	pthread_mutex_lock( &pool->mutex );
	job->done += end - start;
	if ( job->done == job->item_count )
	{
		pthread_cond_broadcast( &pool->done );
	}
	return true;
}

static inline void* bench_pool_thread( void* arg )
{
	bench_pool* pool = ( (bench_pool_thread_arg*)arg )->pool;
	int worker = ( (bench_pool_thread_arg*)arg )->worker;
	free( arg );
	pthread_mutex_lock( &pool->mutex );
	while ( pool->stop == false )
	{
		bool ran = false;
		for ( int j = 0; j < BENCH_POOL_MAX_JOBS && ran == false; ++j )
		{
			ran = bench_pool_run_range( pool, &pool->jobs[j], worker );
		}
		if ( ran == false )
		{
			pthread_cond_wait( &pool->work, &pool->mutex );
		}
	}
	pthread_mutex_unlock( &pool->mutex );
	return NULL;
}

static inline void* bench_pool_enqueue( kcc_task_fcn* task, int item_count, int min_range, void* context, void* user )
{
	bench_pool* pool = (bench_pool*)user;
	min_range = min_range < 1 ? 1 : min_range;
	if ( item_count <= 0 )
	{
		return NULL;
	}
	// Several ranges per worker, so that a worker that finishes early takes more.
	int range = ( item_count + 2 * pool->worker_count - 1 ) / ( 2 * pool->worker_count );
	range = range < min_range ? min_range : range;
	pthread_mutex_lock( &pool->mutex );
	bench_pool_job* job = NULL;
	for ( int j = 0; j < BENCH_POOL_MAX_JOBS && job == NULL; ++j )
	{
		job = pool->jobs[j].in_use ? NULL : &pool->jobs[j];
	}
	if ( pool->thread_count == 0 || item_count <= range || job == NULL )
	{
		// One range, one worker, or no free slot: the calling thread runs it all.
		pthread_mutex_unlock( &pool->mutex );
		task( 0, item_count, 0, context );
		return NULL;
	}
	*job = (bench_pool_job){ task, context, item_count, range, 0, 0, true };
	pthread_cond_broadcast( &pool->work );
	pthread_mutex_unlock( &pool->mutex );
	return job;
}

static inline void bench_pool_finish( void* handle, void* user )
{
	bench_pool* pool = (bench_pool*)user;
	bench_pool_job* job = (bench_pool_job*)handle;
	if ( job == NULL )
	{
		return; // enqueue ran it all
	}
	pthread_mutex_lock( &pool->mutex );
	while ( job->done < job->item_count )
	{
		if ( bench_pool_run_range( pool, job, 0 ) == false && job->done < job->item_count )
		{
			pthread_cond_wait( &pool->done, &pool->mutex );
		}
	}
	job->in_use = false;
	pthread_mutex_unlock( &pool->mutex );
}

static inline void bench_pool_destroy( bench_pool* pool )
{
	if ( pool == NULL )
	{
		return;
	}
	pthread_mutex_lock( &pool->mutex );
	pool->stop = true;
	pthread_cond_broadcast( &pool->work );
	pthread_mutex_unlock( &pool->mutex );
	for ( int i = 0; i < pool->thread_count; ++i )
	{
		pthread_join( pool->threads[i], NULL );
	}
	pthread_cond_destroy( &pool->done );
	pthread_cond_destroy( &pool->work );
	pthread_mutex_destroy( &pool->mutex );
	free( pool );
}

// worker_count workers: the calling thread and worker_count - 1 threads. NULL on failure.
static inline bench_pool* bench_pool_create( int worker_count )
{
	if ( worker_count < 1 || worker_count > BENCH_POOL_MAX_WORKERS )
	{
		return NULL;
	}
	bench_pool* pool = (bench_pool*)calloc( 1, sizeof( bench_pool ) );
	if ( pool == NULL )
	{
		return NULL;
	}
	pool->worker_count = worker_count;
	pthread_mutex_init( &pool->mutex, NULL );
	pthread_cond_init( &pool->work, NULL );
	pthread_cond_init( &pool->done, NULL );
	for ( int i = 1; i < worker_count; ++i )
	{
		bench_pool_thread_arg* arg = (bench_pool_thread_arg*)malloc( sizeof( bench_pool_thread_arg ) );
		if ( arg == NULL )
		{
			bench_pool_destroy( pool );
			return NULL;
		}
		arg->pool = pool;
		arg->worker = i;
		if ( pthread_create( &pool->threads[pool->thread_count], NULL, bench_pool_thread, arg ) != 0 )
		{
			free( arg );
			bench_pool_destroy( pool );
			return NULL;
		}
		pool->thread_count += 1;
	}
	return pool;
}

typedef enum bench_tasks_kind
{
	BENCH_TASKS_LIBRARY = 0, ///< kcc_thread_pool
	BENCH_TASKS_OWN = 1,     ///< our pthread pool
} bench_tasks_kind;

typedef struct bench_tasks
{
	kcc_task_system system;
	bench_pool* own;
	kcc_thread_pool* pool;
	const char* name;
} bench_tasks;

// worker_count >= 1 workers of the given kind. False on failure (t is then empty).
static inline bool bench_tasks_create( bench_tasks* t, int worker_count, bench_tasks_kind kind )
{
	memset( t, 0, sizeof( *t ) );
	if ( kind == BENCH_TASKS_LIBRARY )
	{
		t->pool = kcc_thread_pool_create( worker_count );
		if ( t->pool == NULL )
		{
			return false;
		}
		t->system = kcc_thread_pool_task_system( t->pool );
		t->name = "kcc_thread_pool";
		return true;
	}
	t->own = bench_pool_create( worker_count );
	if ( t->own == NULL )
	{
		return false;
	}
	t->system = (kcc_task_system){ worker_count, bench_pool_enqueue, bench_pool_finish, t->own };
	t->name = "the bench's pthread pool";
	return true;
}

static inline void bench_tasks_destroy( bench_tasks* t )
{
	kcc_thread_pool_destroy( t->pool );
	bench_pool_destroy( t->own );
	memset( t, 0, sizeof( *t ) );
}

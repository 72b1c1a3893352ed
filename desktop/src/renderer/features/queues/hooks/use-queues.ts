import { useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { QUEUES_KEY, applyQueueEvent, queuesApi, type Queue, type QueueEvent } from '../api/queues';

/** The company's queues in menu order, kept live by company-{id}-queue. */
export function useQueues() {
  const query = useQuery<Queue[]>(QUEUES_KEY, queuesApi.list);
  const { setData } = query;
  useRealtimeEvent<QueueEvent>('queue', (event) => setData((old) => applyQueueEvent(old, event)));
  return query;
}

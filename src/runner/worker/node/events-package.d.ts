// The npm `events` package, imported by its file (events.ts says why): its API is Node's EventEmitter.
declare module 'events/events.js' {
  import { EventEmitter } from 'events';
  export default EventEmitter;
}

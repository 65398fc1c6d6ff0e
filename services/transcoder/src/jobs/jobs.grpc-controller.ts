import { Controller, Inject } from '@nestjs/common';
import { common, transcoder } from '@platform/proto';
import { JobsService } from './jobs.service';

@Controller()
@transcoder.TranscoderServiceControllerMethods()
export class JobsGrpcController implements transcoder.TranscoderServiceController {
  constructor(@Inject(JobsService) private readonly jobs: JobsService) {}

  getJob(request: common.IdRequest): Promise<transcoder.Job> {
    return this.jobs.get(request.id);
  }

  listJobs(request: common.PageRequest): Promise<transcoder.JobList> {
    return this.jobs.list(request);
  }
}
